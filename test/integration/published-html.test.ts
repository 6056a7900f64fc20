import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles } from "../helpers/files.ts";
import { htmlErrors } from "../helpers/html-checker.ts";
import { hasJava } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

// Evaluated at collection: skips with a printed reason here, throws in CI.
const hasChecker = hasJava();

/** One page of each kind the demo build publishes: each template, and the widget's pages. */
const KINDS: readonly [string, RegExp][] = [
  ["home", /^index\.html$/],
  ["not found", /^404\.html$/],
  ["every upcoming event", /^events\/index\.html$/],
  ["calendars", /^calendars\/index\.html$/],
  ["a calendar", /^calendars\/[^/]+\/index\.html$/],
  ["a calendar's archive", /^calendars\/[^/]+\/past\/index\.html$/],
  ["a month", /^calendars\/[^/]+\/\d{4}\/\d\d\/index\.html$/],
  ["an event", /^calendars\/[^/]+\/events\/[^/]+\/index\.html$/],
  ["a series", /^calendars\/[^/]+\/series\/[^/]+\/index\.html$/],
  ["categories", /^categories\/index\.html$/],
  ["a category", /^categories\/[^/]+\/index\.html$/],
  ["places", /^places\/index\.html$/],
  ["a place", /^places\/[^/]+\/index\.html$/],
  ["what's on", /^when\/[^/]+\/index\.html$/],
  ["a calendar's what's on", /^calendars\/[^/]+\/when\/[^/]+\/index\.html$/],
  ["search", /^search\/index\.html$/],
  ["subscribe", /^subscribe\/index\.html$/],
  ["the embed guide", /^embed\/index\.html$/],
  ["a calendar's widget", /^embed\/[^/]+\/index\.html$/],
  ["an event's card", /^embed\/[^/]+\/events\/[^/]+\/index\.html$/],
];

describe("published pages of the demo build, as the Nu Html Checker reads them", () => {
  let dir: string;
  let pages: string[];

  beforeAll(async () => {
    dir = (await builtDemoSite()).dir;
    pages = (await listFiles(dir)).filter((file) => file.endsWith(".html"));
  });

  it.skipIf(!hasChecker)("should report what it finds wrong in a page", () => {
    // The checker runs and its report is read: the markup these pages had.
    const page = join(tempDir("ecp-vnu-"), "wrong.html");
    writeFileSync(
      page,
      '<!doctype html><html lang="en"><head><title>x</title></head><body><h1>x</h1><h3 id="l">Code</h3><pre tabindex="0" aria-labelledby="l"><code>x</code></pre></body></html>',
    );
    const messages = htmlErrors([page]).map((error) => error.message);
    expect(messages.join("\n")).toContain("aria-labelledby");
    expect(messages.join("\n")).toContain("skipping 1 heading level");
  });

  it.skipIf(!hasChecker)(
    "should publish every page, of every template and the widget's, without an HTML error",
    () => {
      for (const [kind, pattern] of KINDS)
        expect(pages.filter((page) => pattern.test(page)).length, kind).toBeGreaterThan(0);
      const errors = htmlErrors(pages.map((page) => join(dir, page)));
      expect(
        errors.map(
          (error) => `${error.url.slice(error.url.indexOf(dir) + dir.length)}: ${error.message}`,
        ),
      ).toEqual([]);
    },
    // About 20 seconds of Java for some 480 pages on two cores.
    120_000,
  );
});
