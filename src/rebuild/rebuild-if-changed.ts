import { PublishedSite } from "../api/published-site.ts";
import type { ApiConfig } from "../config/api.ts";
import { readShrinkGuardConfig, type ShrinkGuardConfig } from "../config/publish.ts";
import type { SourcesConfig } from "../config/sources.ts";
import { PublisherError } from "../errors.ts";
import { checkPortal } from "./check-portal.ts";
import { checkSources, type SourcesCheckResult } from "./check-sources.ts";
import { judgeListShrink, type ListShrink } from "./list-shrink.ts";
import { pendingSince, type RequestedBuild, type RequestedBuildMemory } from "./requested-build.ts";
import { triggerRebuild } from "./trigger-rebuild.ts";

/**
 * `npm run rebuild-if-changed` and the scheduled function: check the portal,
 * or every source of a site of several (check-sources.ts), against the
 * published build state and POST the build hook only when they differ.
 * The last line starts with "unchanged" or "changed"; a check that cannot
 * tell throws a PublisherError (one line, exit 1) and calls no hook, and so
 * does a change the shrink guard would not publish (list-shrink.ts): the
 * lists of an expired token, or a removal that needs ALLOW_SHRINK=1. Neither
 * the token (redacted by the API client) nor the hook URL (redacted by
 * triggerRebuild) reaches a line.
 */

export interface RebuildIfChangedOptions {
  /** The one portal's settings, or EVENT_SOURCES_FILE's sources (each checked on its own). */
  readonly config: ApiConfig | SourcesConfig;
  /** The published site: its output folder or its address. */
  readonly published: string;
  readonly nowMs: number;
  /** BUILD_HOOK_URL; unset: report the change and request nothing (GitHub Actions, cron). */
  readonly hookUrl: string | undefined;
  /** The caller builds on a change itself (npm run publish-on-change): no hook is named. */
  readonly buildsItself?: boolean;
  /** The shrink guard's settings, as the build reads them (default: its limits, not allowed). */
  readonly shrinkGuard?: ShrinkGuardConfig;
  /** Time limit for reading the build state and the portal (ms). */
  readonly deadlineMs?: number;
  readonly hookTimeoutMs?: number;
  readonly fetch?: typeof globalThis.fetch;
  readonly log?: (line: string) => void;
  /**
   * The build last requested (the scheduled function's store): a check that
   * sees what it saw then requests no second build while the first runs.
   */
  readonly requested?: RequestedBuildMemory;
}

export interface RebuildIfChangedResult {
  readonly changed: boolean;
  /** False when a change was found and the hook refused or failed, or a source could not be checked. */
  readonly ok: boolean;
  readonly requested: boolean;
  readonly lines: readonly string[];
  readonly requests: number;
  readonly notModified: number;
  /** Bytes read: the bodies of the list pages that changed, and the build state's files. */
  readonly bytes: number;
  readonly seconds: number;
}

export async function rebuildIfChanged(
  options: RebuildIfChangedOptions,
): Promise<RebuildIfChangedResult> {
  const started = performance.now();
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    options.log?.(line);
  };
  const signal = options.deadlineMs ? AbortSignal.timeout(options.deadlineMs) : undefined;
  const { config } = options;
  const several = "sources" in config;
  let check: SourcesCheckResult;
  const published = new PublishedSite(options.published, {
    ...(options.deadlineMs ? { timeoutMs: Math.min(options.deadlineMs / 2, 10_000) } : {}),
    signal,
  });
  try {
    const common = {
      published,
      nowMs: options.nowMs,
      signal,
    };
    check = several
      ? await checkSources({ ...common, sources: config })
      : { ...(await checkPortal({ ...common, config })), failures: [] };
  } catch (error) {
    if (signal?.aborted) {
      throw new PublisherError(
        `The portal did not answer every list request within ${(options.deadlineMs ?? 0) / 1000} s (the check's time limit); no rebuild was requested, the next run tries again.`,
        { cause: error },
      );
    }
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  // What the check read: the lists' bodies, and the build state's files from the published site.
  const bytes = check.bytes + published.read.bytes;
  const counted = `${check.requests} list requests, ${check.notModified} answered 304 Not Modified, ${formatKilobytes(bytes)} read, ${seconds.toFixed(2)} s`;
  say(several ? `sources: ${config.sources.length}, ${counted}` : `portal: ${counted}`);
  // A source that could not be checked is said, and the run ends in error; the others' changes still count.
  for (const failure of check.failures) say(failure);
  const checked = check.failures.length === 0;
  const base = {
    requests: check.requests,
    notModified: check.notModified,
    bytes,
    seconds,
  };
  if (!check.changed) {
    say(
      several
        ? `unchanged: ${checked ? "every source shows" : "the sources checked show"} what the published site was built from`
        : "unchanged: the portal shows what the published site was built from",
    );
    return { ...base, changed: false, ok: checked, requested: false, lines };
  }
  const what = check.changes.join("; ");
  const shrink: ListShrink = check.counts
    ? judgeListShrink(
        check.counts.published,
        check.counts.portal,
        options.shrinkGuard ?? readShrinkGuardConfig({}),
      )
    : { verdict: "passes" };
  if (shrink.verdict === "stops") {
    throw new PublisherError(
      `No build requested, because the shrink guard would stop it: ${shrink.reason}; the ${several ? "sources'" : "portal's"} lists hold ${shrink.portalEvents} events where the published site has ${shrink.publishedEvents}. Check ${several ? "the sources' tokens and portals" : "EVENT_API_TOKEN and the portal"}, or, if the events really were removed, allow it once with ALLOW_SHRINK=1 (docs/deploy.md, "Shrink guard").`,
    );
  }
  const allowed = shrink.verdict === "allowed";
  if (options.buildsItself) {
    say(`changed: ${what}; building${allowed ? " with ALLOW_SHRINK=1" : ""}`);
    return { ...base, changed: true, ok: checked, requested: false, lines };
  }
  if (!options.hookUrl?.trim()) {
    say(`changed: ${what}; BUILD_HOOK_URL is not set, so no rebuild was requested`);
    return { ...base, changed: true, ok: checked, requested: false, lines };
  }
  const pending = await lastRequested(options.requested, say);
  const since = pendingSince(pending, check.seen, options.nowMs);
  if (since) {
    say(
      `changed: ${what}; a rebuild for it was requested at ${since} and is not published yet, so none was requested again`,
    );
    return { ...base, changed: true, ok: checked, requested: false, lines };
  }
  const hook = await triggerRebuild({
    hookUrl: options.hookUrl,
    fetch: options.fetch,
    timeoutMs: options.hookTimeoutMs,
    title: `${several ? "Sources" : "Portal"} changed: ${what}`.slice(0, 200),
    // The build must publish what the check let through, or it stops at the guard.
    allowShrink: allowed,
    log: () => undefined,
  });
  if (hook.ok) {
    await options.requested
      ?.remember({ seen: check.seen, at: new Date(options.nowMs).toISOString() })
      .catch((error: unknown) =>
        say(`the requested build could not be remembered: ${reason(error)}`),
      );
    say(`changed: ${what}; rebuild requested${allowed ? " with ALLOW_SHRINK=1" : ""}`);
    return { ...base, changed: true, ok: checked, requested: true, lines };
  }
  say(`changed: ${what}; rebuild NOT requested: ${hook.message}`);
  return { ...base, changed: true, ok: false, requested: false, lines };
}

/** The memory's last request; a store that cannot be read is said and treated as empty. */
async function lastRequested(
  memory: RequestedBuildMemory | undefined,
  say: (line: string) => void,
): Promise<RequestedBuild | null> {
  try {
    return (await memory?.last()) ?? null;
  } catch (error) {
    say(`the last requested build could not be read: ${reason(error)}`);
    return null;
  }
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

/** "3.2 kB", "1,204.5 kB": one unit, so that lines of checks compare at a glance. */
function formatKilobytes(bytes: number): string {
  return `${(bytes / 1000).toLocaleString("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} kB`;
}
