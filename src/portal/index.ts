import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConcurrencyGate } from "./concurrency-gate.ts";
import { loadDatasetFile } from "./dataset-file.ts";
import { validateDataset } from "./dataset-validate.ts";
import { createDemoDataset } from "./demo-dataset.ts";
import { FaultInjector } from "./fault-injector.ts";
import { mediaLibrary } from "./media.ts";
import { PageCache } from "./page-cache.ts";
import { type PortalOptions, type ResolvedOptions, resolveOptions } from "./portal-options.ts";
import { rawProblemResponse } from "./problem.ts";
import { RateLimiter } from "./rate-limiter.ts";
import { type CounterSnapshot, RequestCounters } from "./request-counters.ts";
import { createRequestHandler } from "./request-handler.ts";
import { API_PREFIX } from "./router.ts";
import { PortalStore } from "./store.ts";
import { createSyntheticDataset } from "./synthetic-dataset.ts";
import { TokenStore } from "./token-store.ts";
import type { DatasetEvent, EventPatch, NewEvent, PortalDataset } from "./types.ts";

export { loadDatasetFile } from "./dataset-file.ts";
export { DatasetError, validateDataset } from "./dataset-validate.ts";
export { createDemoDataset } from "./demo-dataset.ts";
export { DIALECT_PRESETS, type DialectSpec } from "./dialect.ts";
export type { PagingStyle } from "./paging.ts";
export type { PortalOptions } from "./portal-options.ts";
export type { CounterSnapshot } from "./request-counters.ts";
export { createSyntheticDataset, type SyntheticOptions } from "./synthetic-dataset.ts";
export type * from "./types.ts";

export interface RunningPortal {
  /** API base URL, ending in /v1. */
  readonly url: string;
  /** http://host:port */
  readonly origin: string;
  /** A valid token of the dataset's first (default) organization. */
  readonly token: string;
  readonly organizationId: string;
  /** Issues an in-memory token for an organization of the dataset. */
  issueToken(orgId: string): string;
  /** Revokes a token by id or by the token itself; false when unknown. */
  revokeToken(tokenOrId: string): boolean;
  /** A copy of the counters at the time of reading. */
  readonly counters: CounterSnapshot;
  resetCounters(): void;
  /** Changes an event as an editor would: revision + 1, updatedAt = portal clock. */
  updateEvent(calendarId: string, eventId: string, patch: EventPatch): DatasetEvent;
  /** Adds an event as an editor would: revision 1, createdAt = updatedAt = portal clock. */
  addEvent(event: NewEvent): DatasetEvent;
  /** Deletes an event; its calendar's list changes at the portal clock. Returns what was removed. */
  deleteEvent(calendarId: string, eventId: string): DatasetEvent;
  /** Moves an event to another calendar under the same id: revision + 1, both lists change. */
  moveEvent(calendarId: string, eventId: string, toCalendarId: string): DatasetEvent;
  /** Events in all calendars. */
  readonly eventCount: number;
  close(): Promise<void>;
}

export async function startPortal(options: PortalOptions = {}): Promise<RunningPortal> {
  const resolved = resolveOptions(options);
  const dataset = await chooseDataset(options, resolved);
  const store = new PortalStore(dataset);
  const defaultOrg = store.defaultOrganization;
  if (!defaultOrg) throw new RangeError("the dataset has no organization");
  const tokens = new TokenStore(options.tokensFile);
  const counters = new RequestCounters();
  let origin = "";
  const handler = createRequestHandler({
    store,
    tokens,
    auth: resolved.auth,
    paging: resolved.paging,
    dialect: resolved.dialect,
    pageSizeMax: resolved.pageSizeMax,
    emptyLists: resolved.emptyLists,
    counters,
    media: mediaLibrary(dataset),
    latencyMs: resolved.latencyMs,
    gate: resolved.maxConcurrency ? new ConcurrencyGate(resolved.maxConcurrency) : null,
    faults: resolved.faultRate > 0 ? new FaultInjector(resolved.faultRate, resolved.seed) : null,
    rateLimiter: resolved.rateLimit ? new RateLimiter(resolved.rateLimit) : null,
    pageCache: new PageCache(),
    origin: () => origin,
  });
  // The handler answers every failure itself; this only guards the process.
  const server = createServer((req, res) => {
    handler(req, res).catch(() => res.destroy());
  });
  answerParserErrors(server, () => origin);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  origin = originOf(server.address() as AddressInfo);
  const clock = () => resolved.nowMs ?? Date.now();
  const issueToken = (orgId: string): string => {
    if (!store.hasOrganization(orgId))
      throw new RangeError(`no organization ${orgId} in the dataset`);
    return tokens.issue(orgId).token;
  };
  const token = issueToken(defaultOrg.id);
  return {
    url: origin + API_PREFIX,
    origin,
    token,
    organizationId: defaultOrg.id,
    issueToken,
    revokeToken: (tokenOrId) =>
      tokens.revoke(/^ecp_([a-z0-9]{12})_/.exec(tokenOrId)?.[1] ?? tokenOrId),
    get counters() {
      return counters.snapshot();
    },
    resetCounters: () => counters.reset(),
    updateEvent: (calendarId, eventId, patch) =>
      store.updateEvent(calendarId, eventId, patch, clock()),
    addEvent: (event) => store.addEvent(event, clock()),
    deleteEvent: (calendarId, eventId) => store.deleteEvent(calendarId, eventId, clock()),
    moveEvent: (calendarId, eventId, toCalendarId) =>
      store.moveEvent(calendarId, eventId, toCalendarId, clock()),
    get eventCount() {
      return store.eventCount();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function chooseDataset(
  options: PortalOptions,
  resolved: ResolvedOptions,
): Promise<PortalDataset> {
  const now = resolved.nowMs === null ? new Date() : new Date(resolved.nowMs);
  if (options.dataset) return validateDataset(options.dataset);
  if (options.dataFile) return loadDatasetFile(options.dataFile);
  // Generated datasets are valid by construction; skipping validation keeps
  // 100,000 synthetic events quick to load.
  if (options.synthetic)
    return createSyntheticDataset({ ...options.synthetic, seed: resolved.seed, now });
  return createDemoDataset(now);
}

function originOf(address: AddressInfo): string {
  const host =
    address.address === "0.0.0.0"
      ? "127.0.0.1"
      : address.address === "::"
        ? "[::1]"
        : address.address;
  return `http://${address.family === "IPv6" && !host.startsWith("[") ? `[${host}]` : host}:${address.port}`;
}

/**
 * Requests Node's parser rejects (bad characters, oversized headers) never
 * reach the handler; answer them with a problem too instead of a bare 400.
 */
function answerParserErrors(server: Server, origin: () => string): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable && !(error.code === "ECONNRESET")) {
      const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
      socket.end(
        rawProblemResponse(
          origin(),
          tooLarge ? "headers-too-large" : "bad-request",
          tooLarge
            ? "The request line or headers are too large."
            : "The request is not valid HTTP/1.1.",
        ),
      );
    } else {
      socket.destroy();
    }
  });
}
