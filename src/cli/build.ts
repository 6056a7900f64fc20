import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import Eleventy from "@11ty/eleventy";
import { loadPreviousManifest, MANIFEST_PATH } from "../build/previous-manifest.ts";
import { discardStaging, prepareStaging, publishAtomically } from "../build/publish.ts";
import { countOutput, formatBuildReport } from "../build/report.ts";
import { resolveRebuildInterval } from "../build/schedule.ts";
import { checkShrink, parseManifestCounts, readShrinkGuardConfig } from "../build/shrink-guard.ts";
import { type BuildChanges, buildChangesOf } from "../changes/site-changes.ts";
import { readApiConfig } from "../config/api.ts";
import { getSiteConfig } from "../config/site.ts";
import { takeOutputWarnings } from "../eleventy/output-warnings.ts";
import { PublishError } from "../errors.ts";
import { readMetrics, timed, timedAsync } from "../metrics.ts";
import { writeBuildState } from "../rebuild/write-build-state.ts";
import { buildSearchIndex } from "../search/search-index.ts";
import { loadSiteData } from "../site/load.ts";
import { loadSnapshot } from "../snapshot/index.ts";
import { useDemoPortalIfUnconfigured } from "./demo-portal.ts";
import { runCli } from "./run.ts";

/**
 * `npm run build`: fetch the portal snapshot, render the site into a staging
 * folder next to the output, check it against what is published, then swap
 * it into place. Any failure leaves the previously published output as it was
 * (docs/deploy.md, "Safe builds").
 */
runCli(async () => {
  const { values } = parseArgs({
    options: { output: { type: "string", default: "_site" }, metrics: { type: "string" } },
  });
  const output = values.output;
  const started = performance.now();
  // The staging folder is made beside the output, so its parent must exist.
  await mkdir(dirname(resolve(output)), { recursive: true });

  // One rebuild interval for every output (REFRESH-INTERVAL, cache lifetimes),
  // taken from netlify.toml unless set explicitly; read before the site settings.
  if (!process.env.REBUILD_INTERVAL_MINUTES?.trim()) {
    process.env.REBUILD_INTERVAL_MINUTES = String(resolveRebuildInterval(process.env).minutes);
  }
  const site = getSiteConfig();
  // One clock for the build and every thread it starts (render workers read the environment).
  const now = site.now.toISO();
  if (now) process.env.SITE_NOW = now;
  const guard = readShrinkGuardConfig(process.env);

  const stopDemoPortal = await useDemoPortalIfUnconfigured(site);
  let data: Awaited<ReturnType<typeof loadSiteData>>;
  try {
    // Fetch before rendering anything: an unusable API fails here, with its own message.
    data = await loadSiteData();
  } finally {
    await stopDemoPortal();
  }

  const staging = await prepareStaging(output);
  try {
    const eleventy = new Eleventy("templates", staging, {
      quietMode: true,
      configPath: ".eleventy.js",
    });
    // Pagefind indexes in its own process while Eleventy renders; the files are written after.
    const apiConfig = readApiConfig(process.env);
    const searchIndex = buildSearchIndex(data, site, { cacheDir: apiConfig.cacheDir });
    searchIndex.catch(() => {}); // awaited below, unless rendering fails first
    await timedAsync("render", () => eleventy.write());
    const index = await timedAsync("search index", () => searchIndex);
    timed("search index", () => index.writeTo(staging));
    await writeBuildState({
      staging,
      output,
      site,
      config: apiConfig,
      snapshot: await loadSnapshot(),
      published: data,
      changes: buildChangesOf(data)?.published ?? null,
    });

    const built = parseManifestCounts(
      JSON.parse(await readFile(join(staging, MANIFEST_PATH), "utf8")),
    );
    if ("problem" in built)
      throw new PublishError(`The built ${MANIFEST_PATH} is unusable: ${built.problem}.`);
    const previous = await loadPreviousManifest({
      siteUrl: site.url,
      outputDir: output,
      remoteUrl: process.env.PREVIOUS_MANIFEST_URL?.trim() || undefined,
    });
    const shrink = checkShrink({ previous: previous.manifest, next: built.manifest, ...guard });

    await timedAsync("publish", () => publishAtomically(staging, output));
    // Only a published site moves on the state the next build compares with.
    const changes = buildChangesOf(data);
    const stateWarnings = await keepPublishedState(changes);
    const counts = timed("report", () => countOutput(output));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      formatBuildReport({
        calendars: data.calendars.length,
        events: built.manifest.totals.events,
        pages: counts.pages,
        files: counts.files,
        bytes: counts.bytes,
        warnings: [...data.warnings, ...takeOutputWarnings(), ...shrink.warnings, ...stateWarnings],
        seconds,
        output,
        changes: changes?.report ?? null,
      }),
    );
    if (values.metrics) {
      // For npm run bench and the tests that count work (docs/performance.md).
      const metrics = {
        events: built.manifest.totals.events,
        calendars: data.calendars.length,
        ...counts,
        seconds,
        peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
        ...readMetrics(),
      };
      await writeFile(values.metrics, `${JSON.stringify(metrics, null, 2)}\n`);
    }
  } catch (error) {
    await discardStaging(staging);
    throw error;
  }
});

/** Writes the published state; a failure is a warning (the site is already published). */
async function keepPublishedState(changes: BuildChanges | null): Promise<string[]> {
  if (!changes) return [];
  try {
    await changes.commit();
    return [];
  } catch (error) {
    return [
      `The published state could not be kept (${(error as Error).message}); the next build compares with an older one.`,
    ];
  }
}
