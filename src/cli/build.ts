import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkHostLimits } from "../build/host-limits.ts";
import {
  compareFiles,
  type FileHashes,
  hashOutput,
  readFileList,
  writeFileList,
} from "../build/output-files.ts";
import { loadPreviousManifest } from "../build/previous-manifest.ts";
import { discardStaging, prepareStaging, publishAtomically } from "../build/publish.ts";
import { formatBuildReport } from "../build/report.ts";
import { checkShrink, parseManifestCounts } from "../build/shrink-guard.ts";
import { earlyEventCards, openShareCards } from "../cards/share-cards.ts";
import { savePublishedState } from "../changes/previous-state.ts";
import { publishedStateFolder } from "../changes/state-location.ts";
import { readBuildConfig } from "../config/build-config.ts";
import type { WrittenFiles } from "../eleventy/publisher-plugin.ts";
import { siteEleventy } from "../eleventy/site-eleventy.ts";
import { PublishError } from "../errors.ts";
import { readMetrics, timed, timedAsync } from "../metrics.ts";
import { paths } from "../model/url-scheme.ts";
import { richResultsMetrics } from "../outputs/rich-results.ts";
import { writeBuildState } from "../rebuild/write-build-state.ts";
import { loadSiteData } from "../site/load.ts";
import { loadSnapshot } from "../snapshot/load-snapshot.ts";
import { connectPortal } from "./connect-portal.ts";
import { runCli } from "./run.ts";

/**
 * `npm run build`: read the settings once, fetch the portal's snapshot, work
 * out what changed since the last publish, render the site into a staging
 * folder next to the output, check it against what is published, then swap it
 * into place. Each stage hands the next what it needs. Any failure leaves the
 * previously published output as it was (docs/deploy.md, "Safe builds").
 */
runCli(async () => {
  const { values } = parseArgs({
    options: { output: { type: "string", default: "_site" }, metrics: { type: "string" } },
  });
  const output = values.output;
  const started = performance.now();
  const config = readBuildConfig(process.env);
  const { site } = config;
  // The staging folder is made beside the output, so its parent must exist.
  await mkdir(dirname(resolve(output)), { recursive: true });

  // Fetch before rendering anything: an unusable API fails here, with its own message.
  const portal = await connectPortal(config);
  const cards = await openShareCards(config.cacheDir, config.cards.mode);
  const loaded = await (async () => {
    try {
      const fetched = await loadSnapshot({
        config: portal.api,
        defaultTimeZone: site.timeZone,
        now: site.now.toJSDate(),
        sink: process.stderr,
        // Share cards are drawn while the build waits on the portal (src/cards).
        onEvent: cards ? earlyEventCards(site, cards.studio, cards.mode) : undefined,
      });
      // Images are copied from the portal while it is still there (the demo's stops).
      return { fetched, ...(await loadSiteData(fetched.snapshot, { ...config, output })) };
    } finally {
      await portal.close();
    }
  })();
  const { fetched, data, changes } = loaded;

  const staging = await prepareStaging(output);
  try {
    let written: WrittenFiles | undefined;
    const eleventy = siteEleventy({
      output: staging,
      site,
      cacheDir: config.cacheDir,
      deployTarget: config.deploy.target,
      cards,
      loadData: async () => data,
      onWritten: (files) => {
        written = files;
      },
    });
    await timedAsync("render", () => eleventy.write());
    await writeBuildState({
      staging,
      output,
      config,
      api: portal.recorded,
      lists: fetched.lists,
      published: data,
      changes: changes.next,
    });

    // Every file, hashed: what the report counts, and what the next build compares with.
    const outputFiles = timed("hash", () => hashOutput(staging));
    // Kept beside the published state of this output folder and SITE_URL (src/changes/state-location.ts).
    const fileList = join(publishedStateFolder(config.cacheDir, output, site.url), "files.json");
    const fileChanges = timed("hash", () => {
      const before =
        readFileList(fileList) ?? (existsSync(output) ? hashOutput(output).hashes : null);
      return before && compareFiles(before, outputFiles.hashes);
    });

    const manifestPath = join(staging, paths.apiManifest());
    const built = parseManifestCounts(JSON.parse(await readFile(manifestPath, "utf8")));
    if ("problem" in built) {
      throw new PublishError(`The built ${paths.apiManifest()} is unusable: ${built.problem}.`);
    }
    const previous = await loadPreviousManifest({
      siteUrl: site.url,
      outputDir: output,
      publishedSite: config.publish.publishedSite,
    });
    const shrink = checkShrink({
      previous: previous.manifest,
      next: built.manifest,
      ...config.publish.shrinkGuard,
    });

    await timedAsync("publish", () => publishAtomically(staging, output));
    // Only a published site moves on the state the next build compares with.
    const stateWarnings = [
      ...(await keepPublishedState({ cacheDir: config.cacheDir, output }, changes.next)),
      ...keepFileList(fileList, outputFiles.hashes),
    ];
    const host = checkHostLimits({
      target: config.deploy.target,
      count: outputFiles,
      eventIcsFiles: readMetrics().counters["rendered.event.ics"] ?? 0,
      eventEmbedFiles:
        (readMetrics().counters["rendered.event card"] ?? 0) +
        (readMetrics().counters["rendered.event oembed"] ?? 0),
      structuredDataCards: readMetrics().counters["cards.structuredDataFiles"] ?? 0,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      formatBuildReport({
        calendars: data.calendars.length,
        events: built.manifest.totals.events,
        pages: outputFiles.pages,
        files: outputFiles.files,
        bytes: outputFiles.bytes,
        fileChanges,
        warnings: [
          ...data.warnings,
          ...(written?.warnings ?? []),
          ...shrink.warnings,
          ...stateWarnings,
          ...host.warnings,
        ],
        seconds,
        output,
        host: host.line,
        changes: changes.report,
        richResults: written?.richResults,
        cards: written?.cards,
      }),
    );
    if (values.metrics) {
      // For npm run bench and the tests that count work (docs/performance.md).
      const metrics = {
        events: built.manifest.totals.events,
        calendars: data.calendars.length,
        files: outputFiles.files,
        bytes: outputFiles.bytes,
        pages: outputFiles.pages,
        largestFile: outputFiles.largestFile,
        // Compared with the last publish's files; null when there was nothing to compare with.
        filesNew: fileChanges?.added ?? null,
        filesChanged: fileChanges?.changed ?? null,
        filesRemoved: fileChanges?.removed ?? null,
        seconds,
        peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
        // Shares of Google's Event rich results fields in the event pages' JSON-LD.
        richResults: written ? richResultsMetrics(written.richResults) : null,
        ...readMetrics(),
      };
      await writeFile(values.metrics, `${JSON.stringify(metrics, null, 2)}\n`);
    }
  } catch (error) {
    await discardStaging(staging);
    throw error;
  } finally {
    // Every card the site needs is written; one drawn early and not needed need not finish.
    await cards?.studio.close();
  }
});

/** Writes the published state; a failure is a warning (the site is already published). */
async function keepPublishedState(
  place: Parameters<typeof savePublishedState>[0],
  state: Parameters<typeof savePublishedState>[1],
): Promise<string[]> {
  try {
    await savePublishedState(place, state);
    return [];
  } catch (error) {
    return [
      `The published state could not be kept (${(error as Error).message}); the next build compares with an older one.`,
    ];
  }
}

/** Keeps the published files' hashes for the next build's counts; a failure is a warning. */
function keepFileList(path: string, hashes: FileHashes): string[] {
  try {
    writeFileList(path, hashes);
    return [];
  } catch (error) {
    return [
      `The list of published files could not be kept (${(error as Error).message}); the next build counts changed files against the output folder.`,
    ];
  }
}
