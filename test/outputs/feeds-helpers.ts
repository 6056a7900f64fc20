import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DateTime } from "luxon";
import type { SiteConfig } from "../../src/config/site.ts";
import feedsPlugin from "../../src/eleventy/feeds-plugin.ts";
import type { Category, PortalSnapshot } from "../../src/model/types.ts";
import { FIXTURE_NOW, fixtureSnapshot } from "../fixtures/snapshot.ts";
import { SYSTEM_PYTHON } from "../helpers/system.ts";

/** The site settings every feeds/ics test builds with (pinned clock). */
export const TEST_SITE: SiteConfig = {
  url: "https://events.example.org",
  title: "City Events",
  description: "Markets, walks, concerts; and more.",
  lang: "en-GB",
  uiLanguage: "en",
  timeZone: "Europe/Amsterdam",
  now: DateTime.fromISO(FIXTURE_NOW, { zone: "utc" }),
  pastDays: 365,
  feedPastDays: 30,
  cancelledGraceDays: 30,
  refreshMinutes: 60,
};

export function siteWith(overrides: Partial<SiteConfig>): SiteConfig {
  return { ...TEST_SITE, ...overrides };
}

/** The category list the site data provides: every category of every event, once. */
export function categoriesOf(snapshot: PortalSnapshot): Category[] {
  const byId = new Map<string, Category>();
  for (const event of snapshot.events) {
    for (const category of event.categories) byId.set(category.id, category);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * Builds a tiny Eleventy project in a temporary folder with only the feeds
 * plugin and the global data the site provides (`portal`, `site`), and
 * returns the output folder and the written files (relative, sorted).
 */
export async function buildFixtureSite(
  snapshot: PortalSnapshot = fixtureSnapshot,
  site: SiteConfig = TEST_SITE,
  pages: Readonly<Record<string, string>> = {},
): Promise<{ outDir: string; files: string[] }> {
  const root = await mkdtemp(join(tmpdir(), "feeds-build-"));
  const inputDir = join(root, "in");
  const outDir = join(root, "out");
  await mkdir(inputDir, { recursive: true });
  for (const [name, content] of Object.entries(pages)) {
    await writeFile(join(inputDir, name), content);
  }
  // An explicit, empty config file: Eleventy must not load the project's .eleventy.js.
  const configPath = join(root, "eleventy.config.cjs");
  await writeFile(configPath, "module.exports = function () {};\n");
  const portal = { ...snapshot, categories: categoriesOf(snapshot) };
  const elev = new (await loadEleventy())(inputDir, outDir, {
    quietMode: true,
    configPath,
    config(
      eleventyConfig: Parameters<typeof feedsPlugin>[0] & {
        addGlobalData(name: string, value: unknown): void;
        addPlugin(plugin: unknown): void;
      },
    ) {
      eleventyConfig.addGlobalData("portal", portal);
      eleventyConfig.addGlobalData("site", site);
      eleventyConfig.addPlugin(feedsPlugin);
    },
  });
  await elev.write();
  return { outDir, files: await listFiles(outDir) };
}

interface EleventyInstance {
  write(): Promise<unknown>;
}
type EleventyClass = new (input: string, output: string, options: object) => EleventyInstance;

/** Eleventy ships no type declarations; a variable specifier keeps tsc from looking for them. */
async function loadEleventy(): Promise<EleventyClass> {
  const specifier = "@11ty/eleventy";
  const module = (await import(specifier)) as { default: EleventyClass };
  return module.default;
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
