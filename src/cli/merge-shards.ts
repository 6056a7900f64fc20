import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { DEFAULT_OUTPUT } from "../changes/state-location.ts";
import { PUBLISH_STEP_SETTINGS, readPublishStepConfig } from "../config/build-config.ts";
import { UsageError } from "../errors.ts";
import { timedAsync } from "../metrics.ts";
import { checkHostLimits } from "../publish/host-limits.ts";
import { discardStaging, prepareStaging } from "../publish/publish.ts";
import { lastPublishedFiles, publishSite } from "../publish/publish-site.ts";
import { formatBuildReport } from "../publish/report.ts";
import { mergeShards } from "../shards/merge.ts";
import type { ShardRecord } from "../shards/shard-record.ts";
import { defineCommand } from "./command-line.ts";
import { runCli } from "./run.ts";

/**
 * `npm run merge-shards -- --output DIR SHARD_DIR...`: puts the outputs of
 * `npm run build -- --shard I/N` together (src/shards/merge.ts) and publishes
 * them as one build does (src/publish/publish-site.ts): the shrink guard once
 * on the whole site, publishing into DIR, the published state and file
 * list for the next build. Reads the publish step's settings as the build
 * does (SITE_URL, EVENT_API_CACHE_DIR, the shrink guard's, DEPLOY_TARGET):
 * run it with the shards' environment. It needs no portal.
 */
const MERGE_SHARDS = defineCommand({
  run: "npm run merge-shards",
  summary:
    "Puts the outputs of npm run build -- --shard I/N together, checks them and publishes them as one build does.",
  forms: ["[--output <dir>] <shard dir>..."],
  options: {
    output: {
      type: "string",
      value: "<dir>",
      default: DEFAULT_OUTPUT,
      meaning: "the folder the merged site is published into",
    },
  },
  positionals: true,
  settings: PUBLISH_STEP_SETTINGS,
});

runCli(MERGE_SHARDS, async ({ values, positionals }) => {
  if (positionals.length === 0) throw new UsageError("name the shards' output folders");
  const started = performance.now();
  const output = values.output;
  const config = readPublishStepConfig(process.env);
  await mkdir(dirname(resolve(output)), { recursive: true });
  const published = lastPublishedFiles(config, output);
  const staging = await prepareStaging(output);
  try {
    const merged = await timedAsync("merge", () =>
      mergeShards(positionals, staging, { siteUrl: config.site.url, published }),
    );
    // Shard 1 rendered everything site-wide, and the state of the events it publishes.
    const first = merged.records.find((record) => record.shard.index === 1) as ShardRecord;
    const outcome = await publishSite({
      staging,
      output,
      config,
      state: first.state,
      published,
      known: merged.known,
    });
    const sum = (pick: (counts: (typeof merged.records)[number]["counts"]) => number) =>
      merged.records.reduce((total, record) => total + pick(record.counts), 0);
    const host = checkHostLimits({
      target: config.deploy.target,
      count: outcome.files,
      eventIcsFiles: sum((counts) => counts.eventIcs),
      eventEmbedFiles: sum((counts) => counts.eventEmbeds),
      structuredDataCards: sum((counts) => counts.structuredDataCards),
    });
    console.log(`Merged ${merged.records.length} shards: ${merged.known.size} files.`);
    console.log(
      formatBuildReport({
        calendars: outcome.manifest.calendars.length,
        events: outcome.manifest.totals.events,
        pages: outcome.files.pages,
        files: outcome.files.files,
        bytes: outcome.files.bytes,
        fileChanges: outcome.changes,
        warnings: [
          ...new Set(merged.records.flatMap((record) => record.warnings)),
          ...outcome.warnings,
          ...host.warnings,
        ],
        seconds: (performance.now() - started) / 1000,
        output,
        host: host.line,
      }),
    );
  } catch (error) {
    await discardStaging(staging);
    throw error;
  }
});
