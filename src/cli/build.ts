import { mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import Eleventy from "@11ty/eleventy";
import { loadPreviousManifest, MANIFEST_PATH } from "../build/previous-manifest.ts";
import { discardStaging, prepareStaging, publishAtomically } from "../build/publish.ts";
import { countOutput, formatBuildReport } from "../build/report.ts";
import { resolveRebuildInterval } from "../build/schedule.ts";
import { checkShrink, parseManifestCounts, readShrinkGuardConfig } from "../build/shrink-guard.ts";
import { getSiteConfig } from "../config/site.ts";
import { PublishError } from "../errors.ts";
import { writeSearchIndex } from "../search/search-index.ts";
import { loadSiteData } from "../site/load.ts";
import { useDemoPortalIfUnconfigured } from "./demo-portal.ts";
import { runCli } from "./run.ts";

/**
 * `npm run build`: fetch the portal snapshot, render the site into a staging
 * folder next to the output, check it against what is published, then swap
 * it into place. Any failure leaves the previously published output as it was
 * (docs/deploy.md, "Safe builds").
 */
runCli(async () => {
  const { values } = parseArgs({ options: { output: { type: "string", default: "_site" } } });
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
    await eleventy.write();
    await writeSearchIndex(staging, data, site);

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

    await publishAtomically(staging, output);
    const counts = await countOutput(output);
    console.log(
      formatBuildReport({
        calendars: data.calendars.length,
        events: built.manifest.totals.events,
        pages: counts.pages,
        files: counts.files,
        bytes: counts.bytes,
        warnings: [...data.warnings, ...shrink.warnings],
        seconds: (performance.now() - started) / 1000,
        output,
      }),
    );
  } catch (error) {
    await discardStaging(staging);
    throw error;
  }
});
