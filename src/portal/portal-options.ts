import { type AuthMode, parseAuthMode } from "./auth.ts";
import { type Dialect, type DialectSpec, resolveDialect } from "./dialect.ts";
import { MAX_PAGE_SIZE, PAGING_STYLES, type PagingStyle } from "./paging.ts";
import type { PortalDataset } from "./types.ts";
import { parseInstant } from "./zoned-time.ts";

export interface PortalOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Served as given (validated); wins over dataFile and synthetic. */
  dataset?: PortalDataset;
  /** A dataset file (docs/dataset.md). */
  dataFile?: string;
  /** Pins the clock: dataset generation and updatedAt of updateEvent. */
  now?: Date | string;
  /**
   * Each answer is made when its request takes a slot and sent this long
   * after: the work of requests in flight overlaps their wait, as on a
   * portal with a worker per slot.
   */
  latencyMs?: number;
  /** Requests in progress at once; the rest wait in arrival order. */
  maxConcurrency?: number;
  /** Requests per second per token; beyond it 429 with Retry-After. */
  rateLimit?: number;
  /** 0..1: share of API requests answered with a fault. */
  faultRate?: number;
  /** Seeds faults and the synthetic dataset. */
  seed?: number;
  synthetic?: { calendars: number; eventsPerCalendar: number };
  paging?: PagingStyle;
  /** "bearer" (default), "scheme:<Scheme>", "header:<Name>" or "query:<name>". */
  auth?: string;
  /** Record shapes: "contract" (default), "variant", a dialect JSON file or a spec (docs/api.md). */
  dialect?: string | DialectSpec;
  /** Token file shared with the `token` CLI; without it tokens live in memory only. */
  tokensFile?: string;
  /** Largest accepted page size (default 100). */
  pageSizeMax?: number;
  /**
   * Every list answers `200 []`, as some portals answer an expired token,
   * instead of 401: what the shrink guard and the rebuild check must withstand.
   */
  emptyLists?: boolean;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  nowMs: number | null;
  latencyMs: number;
  maxConcurrency: number | null;
  rateLimit: number | null;
  faultRate: number;
  seed: number;
  paging: PagingStyle;
  auth: AuthMode;
  dialect: Dialect;
  pageSizeMax: number;
  emptyLists: boolean;
}

const check = (ok: boolean, message: string): void => {
  if (!ok) throw new RangeError(message);
};

/** Defaults and range checks; every message names the option. */
export function resolveOptions(options: PortalOptions): ResolvedOptions {
  const port = options.port ?? 4010;
  check(Number.isInteger(port) && port >= 0 && port <= 65535, "port must be 0-65535");
  const latencyMs = options.latencyMs ?? 0;
  check(
    Number.isFinite(latencyMs) && latencyMs >= 0 && latencyMs <= 60_000,
    "latencyMs must be 0-60000",
  );
  const maxConcurrency = options.maxConcurrency ?? null;
  check(
    maxConcurrency === null || (Number.isInteger(maxConcurrency) && maxConcurrency >= 1),
    "maxConcurrency must be a positive integer",
  );
  const rateLimit = options.rateLimit ?? null;
  check(
    rateLimit === null || (Number.isFinite(rateLimit) && rateLimit > 0),
    "rateLimit must be positive",
  );
  const faultRate = options.faultRate ?? 0;
  check(faultRate >= 0 && faultRate <= 1, "faultRate must be from 0 to 1");
  const seed = options.seed ?? 1;
  check(Number.isInteger(seed), "seed must be an integer");
  const paging = options.paging ?? "link";
  check(PAGING_STYLES.includes(paging), `paging must be one of ${PAGING_STYLES.join(", ")}`);
  const pageSizeMax = options.pageSizeMax ?? MAX_PAGE_SIZE;
  check(
    Number.isInteger(pageSizeMax) && pageSizeMax >= 1 && pageSizeMax <= 100_000,
    "pageSizeMax must be 1-100000",
  );
  return {
    host: options.host ?? "127.0.0.1",
    port,
    nowMs: options.now === undefined ? null : parseInstant(options.now).toMillis(),
    latencyMs,
    maxConcurrency,
    rateLimit,
    faultRate,
    seed,
    paging,
    auth: parseAuthMode(options.auth),
    dialect: resolveDialect(options.dialect),
    pageSizeMax,
    emptyLists: options.emptyLists ?? false,
  };
}
