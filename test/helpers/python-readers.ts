import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { SYSTEM_PYTHON } from "./system-packages.ts";

/*
 * Built files (and mail a test server received) read by Debian's Python libraries, independent of the
 * JavaScript that wrote them: the scripts in python/ print JSON. Tests that
 * use them check hasPythonModule() first (system-packages.ts).
 */

/** Runs a script of python/ on `paths` with Debian's Python; returns its JSON. */
function runPython<T>(script: string, paths: readonly string[]): T {
  const result = spawnSync(SYSTEM_PYTHON, [join(import.meta.dirname, "python", script), ...paths], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // Only a hang takes this long: parsing the largest files takes seconds on a slow machine.
    timeout: 300_000,
  });
  if (result.status !== 0) {
    throw new Error(`${script} failed (${result.status}): ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}

/** RSS and Atom files as feedparser and a strict XML parser read them (python/parse-feeds.py). */
export const parseFeeds = (paths: readonly string[]): PyFeed[] =>
  runPython("parse-feeds.py", paths);

/** Sitemap files as Python's strict XML parser reads them (python/parse-sitemaps.py), by path. */
export const parseSitemaps = (paths: readonly string[]): Record<string, PySitemap> =>
  runPython("parse-sitemaps.py", paths);

export interface PySitemap {
  readonly kind: "urlset" | "sitemapindex";
  readonly items: readonly {
    readonly loc: string;
    readonly lastmod: string | null;
    /** Its translations' addresses (`xhtml:link rel="alternate"`), where it has any. */
    readonly alternates?: readonly { rel: string; hreflang: string; href: string }[];
  }[];
}

/** Mail messages as Python's email package reads them (python/parse-mail.py). */
export const parseMail = (paths: readonly string[]): PyMail[] => runPython("parse-mail.py", paths);

export interface PyMail {
  readonly path: string;
  /** "multipart/alternative", "text/plain"... */
  readonly type: string;
  readonly defects: readonly string[];
  /** Every header, by lowercase name, decoded (RFC 2047). */
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** The leaf parts, decoded. */
  readonly parts: readonly { type: string; charset: string | null; content: string }[];
}

/** .ics files as Python's icalendar reads them (python/parse-ics.py). */
export const parseIcs = (paths: readonly string[]): PyCalendar[] =>
  runPython("parse-ics.py", paths);

/**
 * What libical's validator says of .ics files (python/libical-validate.py):
 * its errors by file (none: valid), RFC 5545's and RFC 5546's rules for the
 * file's METHOD, as icalvalidate reports them.
 */
export const libicalErrors = (paths: readonly string[]): Record<string, string[]> =>
  runPython("libical-validate.py", paths);

/**
 * What a reader sees in pages, feeds and JSON Feeds (python/read-text.py),
 * by file, relative to the site folder `dir`.
 */
export function readText<T extends PageReading | FeedReading | JsonFeedReading>(
  dir: string,
  files: readonly string[],
): Record<string, T> {
  const byPath = runPython<Record<string, T>>(
    "read-text.py",
    files.map((file) => join(dir, file)),
  );
  return Object.fromEntries(files.map((file) => [file, byPath[join(dir, file)] as T]));
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
    /** RSS <language>, or Atom's xml:lang on the root. */
    language: string | null;
    link: string;
    updated: string | null;
    /** RSS's channel description or Atom's subtitle, as feedparser gives it. */
    subtitle: string | null;
    /** The same element's text as a strict XML parser reads it. */
    description: string | null;
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
    /** The CAL-ADDRESS and its CN, as icalendar reads them. */
    organizer: { address: string; cn: string | null } | null;
  }[];
}

export interface PageReading {
  readonly title: string;
  readonly h1: string[];
  readonly text: string;
  /** Code samples to copy (<pre>): HTML source, escaped as such. */
  readonly code: string[];
  readonly jsonld: string[];
}

export interface FeedReading {
  readonly bozo: boolean;
  readonly version: string;
  readonly xml: { title: string[]; description: string[]; category: string[] };
  readonly feed: { title: string; subtitle: string };
  readonly entries: { title: string; titleType: string; tags: string[]; content: string }[];
}

export interface JsonFeedReading {
  readonly title: string;
  readonly description?: string;
  readonly items: { title: string; tags: string[]; content: string }[];
}
