import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { run } from "./build.ts";

/**
 * The floors a build is measured against, taken in the same run on the same
 * machine and medium (docs/performance.md):
 *
 * - render floor: a bare Eleventy build (the version this project pins) of as
 *   many one-line Nunjucks pages as the site has files, paginated over a
 *   global data array: what writing that many files through Eleventy costs
 *   with no content at all;
 * - fetch floor: the fewest requests the API allows (every list at the
 *   largest page size, one details call per event) times the portal's
 *   latency, divided by its concurrency cap.
 */

export interface RenderFloor {
  readonly pages: number;
  readonly seconds: number;
  readonly peakRssMB: number;
}

const ELEVENTY_CLI = path.resolve(import.meta.dirname, "../node_modules/@11ty/eleventy/cmd.cjs");

export async function measureRenderFloor(pages: number, workDir: string): Promise<RenderFloor> {
  const root = await mkdtemp(path.join(workDir, "ecp-floor-"));
  try {
    await mkdir(path.join(root, "in"));
    await writeFile(
      path.join(root, "in", "page.njk"),
      '---\npagination:\n  data: items\n  size: 1\n  alias: item\npermalink: "/p/{{ item }}/index.html"\n---\n{{ item }}\n',
    );
    await writeFile(
      path.join(root, "eleventy.config.cjs"),
      `module.exports = (config) => { config.addGlobalData("items", Array.from({ length: ${pages} }, (_, i) => i)); };\n`,
    );
    // Reports the child's own peak memory, as the build's --metrics does.
    const rss = path.join(root, "rss.cjs");
    await writeFile(
      rss,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(path.join(root, "rss.txt"))}, String(process.resourceUsage().maxRSS)));\n`,
    );
    const started = performance.now();
    const { code, log } = await run(
      [
        "--require",
        rss,
        ELEVENTY_CLI,
        "--quiet",
        `--config=${path.join(root, "eleventy.config.cjs")}`,
        `--input=${path.join(root, "in")}`,
        `--output=${path.join(root, "out")}`,
      ],
      { ...process.env },
      600_000,
    );
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`The bare Eleventy build failed:\n${log}`);
    const peakRssMB = Math.round(Number(await readFile(path.join(root, "rss.txt"), "utf8")) / 1024);
    return { pages, seconds, peakRssMB };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export interface FetchFloor {
  readonly requests: number;
  readonly seconds: number;
}

export function fetchFloor(options: {
  readonly calendars: number;
  readonly eventsPerCalendar: number;
  readonly maxPageSize: number;
  readonly latencyMs: number;
  readonly maxConcurrency: number;
}): FetchFloor {
  const pageOf = (items: number) => Math.max(1, Math.ceil(items / options.maxPageSize));
  const requests =
    pageOf(options.calendars) +
    options.calendars * pageOf(options.eventsPerCalendar) +
    options.calendars * options.eventsPerCalendar;
  return { requests, seconds: (requests * options.latencyMs) / 1000 / options.maxConcurrency };
}
