import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pruneResponseCache } from "../api/response-cache.ts";
import { openShareCards } from "../cards/share-cards.ts";
import { DEFAULT_OUTPUT } from "../changes/state-location.ts";
import { BUILD_SETTINGS, type BuildConfig, readBuildConfig } from "../config/build-config.ts";
import { loadEleventy } from "../eleventy/site-eleventy.ts";
import { UsageError } from "../errors.ts";
import { readMetrics, timed, timedAsync } from "../metrics.ts";
import { KeptReads } from "../model/kept-reads.ts";
import { richResultsMetrics } from "../outputs/rich-results.ts";
import { buildWarningsPath, writeBuildWarnings } from "../publish/build-warnings.ts";
import { checkHostLimits } from "../publish/host-limits.ts";
import { fileSignatures, hashOutput } from "../publish/output-files.ts";
import { discardStaging, publishAtomically } from "../publish/publish.ts";
import { publishSite } from "../publish/publish-site.ts";
import { formatBuildReport } from "../publish/report.ts";
import { parseManifestCounts } from "../publish/shrink-guard.ts";
import { keepUnchanged } from "../publish/unchanged-build.ts";
import { readAhead } from "../ready/read-ahead.ts";
import { STARTED_UNDER_OTHER_CODE, startedUnder, waitForGo } from "../ready/wait-for-go.ts";
import { buildShape } from "../shards/build-shape.ts";
import { describeShard, owns, parseShard, WHOLE_BUILD } from "../shards/shard.ts";
import { writeShardRecord } from "../shards/shard-record.ts";
import { defineCommand } from "./command-line.ts";
import { connectPortal } from "./connect-portal.ts";
import { type KeptSite, renderSite } from "./render-site.ts";
import { runCli } from "./run.ts";

/**
 * `npm run build`: read the settings once, fetch the portal's snapshot, work
 * out what changed since the last publish, render the site into a staging
 * folder next to the output, check it against what is published, then move
 * what changed into place (src/publish/publish-site.ts). Each stage hands the next what it
 * needs. Any failure leaves the previously published output as it was
 * (docs/deploy.md, "Safe builds"). A build whose inputs are those the last
 * publish recorded, before its next date-relative moment, renders nothing
 * and keeps the site whole (src/publish/unchanged-build.ts).
 *
 * The report lists the first ten warnings (`--verbose`: all of them), and
 * every one is written beside the site's published state in the cache
 * folder (src/publish/build-warnings.ts).
 *
 * With `--shard I/N` it renders one share of a build split over machines
 * (src/shards) into its output folder, for `npm run merge-shards` to put
 * together and publish into `--target` (default `_site`): the folder whose
 * published state the shards compare with.
 */
const BUILD = defineCommand({
  run: "npm run build",
  summary:
    "Fetches the portal, renders the site into a staging folder, checks it and moves what changed into the output folder (the whole site, the first time); renders nothing when the portal, the settings and the code are as the last publish found them and nothing date-relative is due; ends with a short report.",
  options: {
    output: {
      type: "string",
      value: "<dir>",
      meaning: "the folder the site is published into (default _site; a shard's own with --shard)",
    },
    metrics: {
      type: "string",
      value: "<file.json>",
      meaning:
        "also write the build's phase times, work counts, peak memory and CPU time to this file",
    },
    shard: {
      type: "string",
      value: "<I/N>",
      meaning: "render share I of a build split over N machines, for npm run merge-shards",
    },
    target: {
      type: "string",
      value: "<dir>",
      meaning: "with --shard: the folder the shards are merged into (default _site)",
    },
    verbose: {
      type: "boolean",
      meaning:
        "list every warning in the report, not only the first ten (all are kept in EVENT_API_CACHE_DIR either way)",
    },
    ready: {
      type: "boolean",
      meaning:
        'read what the last build kept, then wait for a line "go" on the standard input before fetching; end, doing nothing, if the input ends first (npm run publish-on-change starts its next build so)',
    },
  },
  settings: BUILD_SETTINGS,
});

runCli(BUILD, async ({ values }) => {
  // With --shard, even 1/1, the output is a shard's, for merge-shards to publish.
  const sharded = values.shard !== undefined;
  const shard = values.shard !== undefined ? parseShard(values.shard) : WHOLE_BUILD;
  if (sharded && !values.output) {
    throw new UsageError("--shard needs --output <dir>: a folder of its own for each shard");
  }
  const output = values.output ?? DEFAULT_OUTPUT;
  // The published site this build compares with: its own output, or the shards' merge's.
  const target = sharded ? (values.target ?? DEFAULT_OUTPUT) : output;
  const ready = values.ready ? await readyToGo(target) : undefined;
  if (ready === "not needed") return 0;
  if (ready === "started again") {
    console.log(
      "The code or the .env file changed while this build waited to go: a build started afresh runs instead.",
    );
    return STARTED_UNDER_OTHER_CODE;
  }
  // From here on the build's clock runs: a build started ahead takes its time when told to go.
  const started = performance.now();
  const config = readBuildConfig(process.env);
  const { site } = config;
  // The staging folder is made beside the output, so its parent must exist.
  await mkdir(dirname(resolve(output)), { recursive: true });

  // Fetch before rendering anything: an unusable API fails here, with its own message.
  const portal = await connectPortal(config);
  const cards = await openShareCards(config.cacheDir, config.cards);
  try {
    // The site's data stays inside the render stage; publishing gets what it needs.
    const rendered = await renderSite({
      config,
      portal,
      cards,
      shard,
      sharded,
      output,
      target,
      ...(ready ? { reads: ready } : {}),
    });
    if (rendered.kind === "unchanged") {
      await publishUnchanged(rendered, {
        config,
        output,
        started,
        metrics: values.metrics,
        allWarnings: values.verbose === true,
      });
      return;
    }
    const { staging, written, known, warnings } = rendered;
    try {
      const perEvent = written?.perEvent ?? {
        eventIcs: 0,
        eventEmbeds: 0,
        structuredDataCards: 0,
      };
      if (sharded) {
        // A share of the site: merge-shards checks and publishes the whole, with these hashes
        // and signatures (taken here: moving the folder into place changes no file).
        if (!rendered.shardData) throw new Error("A shard rendered without its data's record.");
        const files = timed("hash", () => hashOutput(staging, { known }));
        const signatures = timed("signatures", () => fileSignatures(staging, files.hashes.keys()));
        await writeShardRecord(staging, {
          shard,
          siteUrl: site.url,
          build: buildShape(config, target),
          data: rendered.shardData,
          counts: perEvent,
          warnings,
          files: [...files.hashes].map(([path, hash]) => [
            path,
            hash,
            files.sizes.get(path) ?? 0,
            signatures.get(path) ?? null,
          ]),
          state: owns(shard, null) ? rendered.state : null,
        });
        await timedAsync("publish", () => publishAtomically(staging, output));
        pruneUnused(config, rendered.cacheUsed);
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `Shard ${describeShard(shard)}: ${files.files} files of its share in ${output}, ${seconds.toFixed(1)} s; put the shards together with npm run merge-shards -- --output ${target} ${output} ...`,
        );
        await writeMetrics(values.metrics, { shard: describeShard(shard), seconds });
        return;
      }

      const outcome = await publishSite({
        staging,
        output,
        config,
        state: rendered.state,
        published: rendered.published,
        known,
        ...(rendered.inputs ? { inputs: rendered.inputs } : {}),
      });
      pruneUnused(config, rendered.cacheUsed);
      const host = checkHostLimits({
        target: config.deploy.target,
        count: outcome.files,
        eventIcsFiles: perEvent.eventIcs,
        eventEmbedFiles: perEvent.eventEmbeds,
        structuredDataCards: perEvent.structuredDataCards,
      });
      const reported = [...warnings, ...outcome.warnings, ...host.warnings];
      // Every warning, for the site owner and not the site (src/publish/build-warnings.ts).
      const warningsFile = buildWarningsPath(config.cacheDir, output, site.url);
      await writeBuildWarnings(warningsFile, {
        version: 1,
        siteUrl: site.url,
        output,
        now: site.now.toUTC().toISO() ?? "",
        warnings: reported,
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        formatBuildReport({
          calendars: rendered.calendars,
          events: outcome.manifest.totals.events,
          ...(rendered.sources ? { sources: rendered.sources, merged: rendered.merged } : {}),
          pages: outcome.files.pages,
          files: outcome.files.files,
          bytes: outcome.files.bytes,
          fileChanges: outcome.changes,
          warnings: reported,
          warningsFile,
          allWarnings: values.verbose === true,
          seconds,
          output,
          host: host.line,
          changes: rendered.changes,
          richResults: written?.richResults,
          cards: written?.cards,
        }),
      );
      await writeMetrics(values.metrics, {
        events: outcome.manifest.totals.events,
        calendars: rendered.calendars,
        files: outcome.files.files,
        bytes: outcome.files.bytes,
        pages: outcome.files.pages,
        largestFile: outcome.files.largestFile,
        // Compared with the last publish's files; null when there was nothing to compare with.
        filesNew: outcome.changes?.added ?? null,
        filesChanged: outcome.changes?.changed ?? null,
        filesRemoved: outcome.changes?.removed ?? null,
        // Unchanged files kept as published rather than written again (src/render/published-files.ts).
        filesKept: outcome.files.kept,
        seconds,
        // Shares of Google's Event rich results fields in the event pages' JSON-LD.
        richResults: written ? richResultsMetrics(written.richResults) : null,
      });
    } catch (error) {
      await discardStaging(staging);
      throw error;
    }
  } finally {
    // Every card the site needs is written; one drawn early and not needed need not finish.
    await cards?.studio.close();
  }
});

/**
 * `--ready`: the kept files read ahead (src/ready), then the wait for "go"
 * on the standard input. Settings that cannot be read are the build's to
 * report, once, after the go: nothing is read ahead then.
 */
async function readyToGo(target: string): Promise<KeptReads | "not needed" | "started again"> {
  const current = startedUnder();
  let reads: KeptReads | undefined;
  try {
    reads = readAhead(readBuildConfig(process.env), target);
  } catch {
    reads = undefined;
  }
  // Eleventy's module too, which a build otherwise loads while the portal answers
  // (one that cannot load fails the build after the go, with its message).
  await loadEleventy().catch(() => {});
  if (!(await waitForGo(process.stdin))) return "not needed";
  if (!current()) return "started again";
  return reads ?? new KeptReads();
}

/**
 * A build that found its site's inputs as the last publish recorded them
 * (src/publish/unchanged-build.ts): manifest.json written again, every
 * other file kept; the report says so, with the last publish's counts and
 * warnings, which the same inputs give again.
 */
async function publishUnchanged(
  kept: KeptSite,
  options: {
    readonly config: BuildConfig;
    readonly output: string;
    readonly started: number;
    readonly metrics: string | undefined;
    /** --verbose */
    readonly allWarnings: boolean;
  },
): Promise<void> {
  const { config, output } = options;
  const outcome = await timedAsync("publish", () =>
    keepUnchanged({ config, output, unchanged: kept.unchanged, fetchedAt: kept.fetchedAt }),
  );
  pruneUnused(config, kept.cacheUsed);
  const counts = parseManifestCounts(outcome.manifest);
  const events = "manifest" in counts ? counts.manifest.totals.events : 0;
  const { warnings } = kept.unchanged.warnings;
  const seconds = (performance.now() - options.started) / 1000;
  console.log(
    formatBuildReport({
      calendars: kept.calendars,
      events,
      ...(kept.sources ? { sources: kept.sources, merged: kept.merged } : {}),
      unchanged: {
        since: new Date(kept.unchanged.record.builtAt).toISOString(),
        until: new Date(kept.unchanged.record.nextChangeAt ?? 0).toISOString(),
      },
      pages: outcome.pages,
      files: outcome.files,
      bytes: outcome.bytes,
      fileChanges: outcome.changes,
      warnings,
      warningsFile: buildWarningsPath(config.cacheDir, output, config.site.url),
      allWarnings: options.allWarnings,
      seconds,
      output,
    }),
  );
  await writeMetrics(options.metrics, {
    events,
    calendars: kept.calendars,
    files: outcome.files,
    bytes: outcome.bytes,
    pages: outcome.pages,
    filesNew: 0,
    filesChanged: outcome.changes.changed,
    filesRemoved: 0,
    filesKept: outcome.files - outcome.changes.changed,
    unchanged: true,
    seconds,
  });
}

/**
 * Once the site is published, the response cache's entries no build has
 * used for a while go (pruneResponseCache): a portal's old address, a
 * calendar gone. Left as they are after a build from the last good data
 * (`used` null).
 */
function pruneUnused(config: BuildConfig, used: ReadonlySet<string> | null): void {
  if (!used) return;
  timed("publish", () => pruneResponseCache(config.cacheDir, used, config.site.now.toMillis()));
}

/** For npm run bench and the tests that count work (docs/performance.md): the figures, then the phases and counters. */
async function writeMetrics(path: string | undefined, figures: Record<string, unknown>) {
  if (!path) return;
  const usage = process.resourceUsage();
  const metrics = {
    ...figures,
    peakRssMB: Math.round(usage.maxRSS / 1024),
    // This process's threads only; the bench adds the processes it started.
    cpuSeconds: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1e3) / 1e3,
    ...readMetrics(),
  };
  await writeFile(path, `${JSON.stringify(metrics, null, 2)}\n`);
}
