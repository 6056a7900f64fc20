import { spawnSync } from "node:child_process";
import { readdir, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DateTime } from "luxon";
import type { SiteConfig } from "../../src/config/site.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { FIXTURE_NOW, fixtureSnapshot } from "../fixtures/snapshot.ts";
import { buildPluginSite, categoriesOf } from "../helpers/plugin-site.ts";
import { SYSTEM_PYTHON } from "../helpers/system.ts";

export { categoriesOf };

/** The site settings every feeds/ics test builds with (pinned clock). */
export const TEST_SITE: SiteConfig = {
  url: "https://events.example.org",
  urls: new SiteUrls("https://events.example.org"),
  title: "City Events",
  description: "Markets, walks, concerts; and more.",
  lang: "en-GB",
  uiLanguage: "en",
  timeZone: "Europe/Amsterdam",
  now: DateTime.fromISO(FIXTURE_NOW, { zone: "utc" }),
  pastDays: 365,
  feedPastDays: 30,
  feedMaxItems: 200,
  cancelledGraceDays: 30,
  refreshMinutes: 60,
  websubHub: null,
  changeNoticeDays: 14,
  icsMaxBytes: 1_000_000,
};

export function siteWith(overrides: Partial<SiteConfig>): SiteConfig {
  const url = overrides.url ?? TEST_SITE.url;
  return { ...TEST_SITE, urls: new SiteUrls(url), ...overrides };
}

/**
 * The publisher's files, built from a snapshot; returns the output folder and
 * its feed, calendar and page files (relative, sorted; not the public JSON,
 * widget, assets or search index, which other tests cover).
 */
export async function buildFixtureSite(
  snapshot: PortalSnapshot = fixtureSnapshot,
  site: SiteConfig = TEST_SITE,
  pages: Readonly<Record<string, string>> = {},
): Promise<{ outDir: string; files: string[]; warnings: readonly string[] }> {
  const { outputDir, warnings } = await buildPluginSite({
    snapshot,
    site,
    templates: pages,
  });
  const files = (await listFiles(outputDir)).filter(
    (file) => !/^(api|embed|oembed|pagefind|assets)\/|^embed\.js$/.test(file),
  );
  return { outDir: outputDir, files, warnings };
}

/** Removes a build made by buildFixtureSite (its whole temporary folder). */
export async function removeFixtureSite(outDir: string): Promise<void> {
  if (outDir) await rm(dirname(outDir), { recursive: true, force: true });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** Runs one of the parse scripts next to this file with Debian's Python; returns its JSON. */
export function runPythonParser<T>(script: "feeds-parse.py" | "ics-parse.py", files: string[]): T {
  const result = spawnSync(SYSTEM_PYTHON, [join(HERE, script), ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (result.status !== 0) {
    throw new Error(`${script} failed (${result.status}): ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}

export interface PyFeed {
  path: string;
  wellFormed: boolean;
  xmlError?: string;
  bozo: boolean;
  bozoException: string;
  version: string;
  feed: {
    title: string;
    link: string;
    updated: string | null;
    links: { rel: string; href: string; type: string }[];
  };
  entries: {
    title: string;
    titleType: string;
    link: string;
    id: string;
    guidIsLink: boolean;
    published: string | null;
    updated: string | null;
    tags: string[];
    enclosures: { href: string; type: string | null }[];
    content: string;
  }[];
}

type PyDate = { utc: string; tzid: string | null } | { date: string } | { floating: string };

export interface PyCalendar {
  path: string;
  errors: string[];
  properties: string[];
  name: string | null;
  timezones: string[];
  events: {
    uid: string;
    summary: string;
    sequence: number;
    status: string;
    start: PyDate;
    end: PyDate | null;
    stamp: PyDate;
    url: string | null;
  }[];
}
