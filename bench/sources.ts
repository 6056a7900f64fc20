import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type RunningPortal, startPortal } from "../src/portal/index.ts";
import { MAX_PAGE_SIZE } from "../src/portal/paging.ts";
import { type BuildRun, runBuild } from "./build.ts";

/**
 * `npm run bench -- --sources 5`: what several organizations cost
 * (docs/sources.md) against one portal of as many events. A site of
 * `sources` reference portals on loopback, each of `eventsPerSource` events
 * in `calendarsPerSource` calendars and seeded apart, built cold and warm
 * from a sources file (EVENT_SOURCES_FILE), against a site of one portal of
 * all those events in as many calendars (EVENT_API_URL), built the same way.
 * The ratio is the sources' cost: their fetches run side by side, then the
 * events are joined (same-events.ts) and each organization gets its page
 * and files. With `--repeat n`, n rounds of both; each cell keeps its
 * fastest, as the sizes' cells do.
 */

export interface SourcesBenchOptions {
  readonly sources: number;
  readonly eventsPerSource: number;
  readonly calendarsPerSource: number;
  readonly latencyMs: number;
  readonly maxConcurrency: number;
  readonly shareCards: string;
  /** Where outputs and caches go (tmpfs or disk). */
  readonly dir: string;
  readonly now: string;
  readonly siteUrl: string;
  /** Rounds of both sites' cold and warm builds; each cell keeps its fastest. */
  readonly repeat: number;
}

export interface SourcesFigures {
  readonly sources: number;
  readonly events: number;
  /** Every round's figures, in the order they ran. */
  readonly rounds: readonly Round[];
  readonly one: ColdAndWarm;
  readonly several: ColdAndWarm;
  readonly coldRatio: number;
  readonly warmRatio: number;
}

export async function benchSources(options: SourcesBenchOptions): Promise<SourcesFigures> {
  const { sources, eventsPerSource, calendarsPerSource } = options;
  const events = sources * eventsPerSource;
  const perCalendar = Math.ceil(eventsPerSource / calendarsPerSource);
  const portalOptions = { host: "127.0.0.1", port: 0, now: options.now };
  const served = { latencyMs: options.latencyMs, maxConcurrency: options.maxConcurrency };
  const work = await mkdtemp(path.join(options.dir, "ecp-bench-sources-"));
  const portals: RunningPortal[] = [];
  try {
    const common = {
      EVENT_API_PAGE_SIZE_PARAM: "limit",
      EVENT_API_PAGE_SIZE: String(MAX_PAGE_SIZE),
      EVENT_API_CONCURRENCY: String(options.maxConcurrency),
      SITE_NOW: options.now,
      SITE_URL: options.siteUrl,
      SHARE_CARDS: options.shareCards,
    };
    // One portal of every event, in as many calendars as the sources have together.
    const single = await startPortal({
      ...portalOptions,
      ...served,
      seed: 1,
      synthetic: { calendars: sources * calendarsPerSource, eventsPerCalendar: perCalendar },
    });
    portals.push(single);
    const organizations: RunningPortal[] = [];
    for (let index = 0; index < sources; index++) {
      organizations.push(
        await startPortal({
          ...portalOptions,
          ...served,
          // Seeded apart: each organization has events of its own.
          seed: index + 1,
          synthetic: { calendars: calendarsPerSource, eventsPerCalendar: perCalendar },
        }),
      );
    }
    portals.push(...organizations);
    const file = path.join(work, "sources.json");
    await writeFile(
      file,
      JSON.stringify(
        organizations.map((portal, index) => ({
          id: `org-${index + 1}`,
          name: `Organization ${index + 1}`,
          url: portal.url,
          tokenEnv: `ORG_${index + 1}_TOKEN`,
        })),
      ),
    );
    const tokens = Object.fromEntries(
      organizations.map((portal, index) => [`ORG_${index + 1}_TOKEN`, portal.token]),
    );
    const oneSettings = { ...common, EVENT_API_URL: single.url, EVENT_API_TOKEN: single.token };
    const severalSettings = { ...common, ...tokens, EVENT_SOURCES_FILE: file };
    // Rounds alternate the two sites, so that a machine that slows down or
    // speeds up during the run weighs on both alike; each cell keeps its fastest.
    const rounds: Round[] = [];
    for (let round = 1; round <= options.repeat; round++) {
      const one = await coldAndWarm(work, `one-${round}`, oneSettings);
      const several = await coldAndWarm(work, `several-${round}`, severalSettings);
      rounds.push({ one, several });
    }
    const one = fastest(rounds.map((round) => round.one));
    const several = fastest(rounds.map((round) => round.several));
    return {
      sources,
      events,
      rounds,
      one,
      several,
      coldRatio: round3(several.cold / one.cold),
      warmRatio: round3(several.warm / one.warm),
    };
  } finally {
    await Promise.all(portals.map((portal) => portal.close()));
    await rm(work, { recursive: true, force: true });
  }
}

/** One round: each site built cold, then warm. */
export interface Round {
  readonly one: ColdAndWarm;
  readonly several: ColdAndWarm;
}

/** Each build's fastest run over the rounds, with that run's phases. */
function fastest(runs: readonly ColdAndWarm[]): ColdAndWarm {
  const best = (key: "cold" | "warm") =>
    runs.reduce((a, b) => (b[key] < a[key] ? b : a), runs[0] as ColdAndWarm);
  const cold = best("cold");
  const warm = best("warm");
  return {
    cold: cold.cold,
    warm: warm.warm,
    coldPhases: cold.coldPhases,
    warmPhases: warm.warmPhases,
  };
}

/** Seconds of a cold and a warm build, and each one's phases (where the difference lies). */
export interface ColdAndWarm {
  readonly cold: number;
  readonly warm: number;
  readonly coldPhases: Readonly<Record<string, number>>;
  readonly warmPhases: Readonly<Record<string, number>>;
}

/** A cold build (no cache, no output), then a warm one of the same data. */
async function coldAndWarm(
  work: string,
  name: string,
  settings: Readonly<Record<string, string>>,
): Promise<ColdAndWarm> {
  const env = { ...settings, EVENT_API_CACHE_DIR: path.join(work, name, "cache") };
  const build = async (run: string): Promise<BuildRun> => {
    const result = await runBuild({
      output: path.join(work, name, "site"),
      metricsFile: path.join(work, name, `${run}.json`),
      env,
      timeoutMs: 1_800_000,
    });
    if (!result.ok) throw new Error(`The ${run} build of ${name} failed:\n${result.error}`);
    return result;
  };
  const cold = await build("cold");
  const warm = await build("warm");
  const phases = (run: BuildRun) =>
    Object.fromEntries(
      Object.entries(run.metrics?.phases ?? {}).map(([phase, ms]) => [phase, round3(ms / 1000)]),
    );
  return {
    cold: round3(cold.wallSeconds),
    warm: round3(warm.wallSeconds),
    coldPhases: phases(cold),
    warmPhases: phases(warm),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
