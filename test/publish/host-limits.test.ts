import { describe, expect, it } from "vitest";
import { checkHostLimits, type HostCheckInput } from "../../src/publish/host-limits.ts";
import type { OutputCount } from "../../src/publish/output-files.ts";

const MiB = 1024 * 1024;

function count(overrides: Partial<OutputCount> = {}): OutputCount {
  return {
    files: 540,
    bytes: 3 * MiB,
    pages: 212,
    largestFile: { path: "atom.xml", bytes: 250_000 },
    ...overrides,
  };
}

/** The check for Cloudflare Pages of a build that wrote `written` (and no event.ics unless `input` says). */
const onCloudflare = (written: Partial<OutputCount>, input: Partial<HostCheckInput> = {}) =>
  checkHostLimits({
    target: "cloudflare-pages",
    count: count(written),
    eventIcsFiles: 0,
    ...input,
  });

/** The check for GitHub Pages of a build that wrote `written`. */
const onGitHubPages = (written: Partial<OutputCount>) =>
  checkHostLimits({ target: "github-pages", count: count(written), eventIcsFiles: 0 });

describe("checkHostLimits", () => {
  it("should say nothing for hosts without limits a site reaches", () => {
    for (const target of ["netlify", "s3", "static"] as const) {
      expect(checkHostLimits({ target, count: count(), eventIcsFiles: 10 })).toEqual({
        line: null,
        warnings: [],
      });
    }
  });

  it("should show Cloudflare Pages' file and file size limits with the headroom", () => {
    const check = onCloudflare({});
    expect(check.line).toBe(
      "Cloudflare Pages: 540 of 20,000 files (paid plans 100,000), largest file 244.1 KB of 25 MiB",
    );
    expect(check.warnings).toEqual([]);
  });

  it.each<[string, number, Partial<HostCheckInput>, string]>([
    [
      "the paid figure and what EVENT_ICS=inline saves",
      32_210,
      {},
      "32,210 files: more than Cloudflare Pages takes on the free plan (20,000); paid plans take 100,000. EVENT_ICS=inline writes 10,000 fewer files (no event.ics per event).",
    ],
    [
      "what EVENT_EMBEDS=off saves too, when the build wrote event cards",
      52_210,
      { eventEmbedFiles: 20_000 },
      "52,210 files: more than Cloudflare Pages takes on the free plan (20,000); paid plans take 100,000. EVENT_ICS=inline writes 10,000 fewer files (no event.ics per event). EVENT_EMBEDS=off writes 20,000 fewer files (no card and oEmbed answer per event).",
    ],
    [
      "what SHARE_CARDS=og saves when the share cards of Google's shapes are written",
      72_210,
      { structuredDataCards: 30_000 },
      "72,210 files: more than Cloudflare Pages takes on the free plan (20,000); paid plans take 100,000. EVENT_ICS=inline writes 10,000 fewer files (no event.ics per event). SHARE_CARDS=og writes 30,000 fewer files (one share card per event instead of four).",
    ],
  ])("should warn above the free plan's 20,000 files, naming %s", (_, files, extra, warning) => {
    const check = onCloudflare({ files }, { eventIcsFiles: 10_000, ...extra });
    expect(check.warnings).toEqual([warning]);
  });

  it("should warn when no plan takes the site, and when it nears the free plan's limit", () => {
    const over = onCloudflare({ files: 100_001 });
    expect(over.warnings).toEqual([
      "100,001 files: more than Cloudflare Pages takes on any plan (100,000; free plan 20,000).",
    ]);
    const near = onCloudflare({ files: 19_000 });
    expect(near.warnings).toEqual([
      "19,000 files: close to the 20,000 Cloudflare Pages takes on the free plan.",
    ]);
    expect(onCloudflare({ files: 18_000 }).warnings).toEqual([]);
  });

  it("should name a file over Cloudflare Pages' 25 MiB", () => {
    const check = onCloudflare({
      largestFile: { path: "pagefind/big.pf_index", bytes: 25 * MiB + 1 },
    });
    expect(check.warnings).toEqual([
      "pagefind/big.pf_index is 25.0 MB: Cloudflare Pages refuses files over 25 MiB.",
    ]);
  });

  it("should hold GitHub Pages' 1 GB for the whole site", () => {
    expect(onGitHubPages({})).toEqual({ line: "GitHub Pages: 3.0 MB of 1 GB", warnings: [] });
    expect(onGitHubPages({ bytes: 1_000_000_001 }).warnings).toEqual([
      "The site is 953.7 MB: GitHub Pages publishes at most 1 GB.",
    ]);
    expect(onGitHubPages({ bytes: 950_000_000 }).warnings).toEqual([
      "The site is 906.0 MB: close to the 1 GB GitHub Pages publishes.",
    ]);
  });
});
