import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse, type TomlTable } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { NETLIFY_TOML_PATH } from "../../src/config/netlify-toml.ts";
import { readRebuildSchedule, scheduleToMinutes } from "../../src/config/schedule.ts";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import {
  headerConflicts,
  headersFor,
  loadHeaderRules,
  pathPattern,
} from "../../src/hosts/headers.ts";
import { DEMO_SITE_URL } from "../helpers/demo-expectations.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles } from "../helpers/files.ts";
import { urlPathOf } from "../helpers/representative-site.ts";

/**
 * netlify.toml's rules with the embed pages' policy, as the build writes it
 * for the demo's SITE_URL (src/hosts/embed-policy.ts; Netlify reads it from
 * _headers).
 */
const rules = withEmbedPolicy(loadHeaderRules(), [DEMO_SITE_URL]);
let files: string[];

/**
 * The rules are checked against every file a real build writes (the shared
 * demo build, or the folder DEPLOY_TEST_SITE_DIR names, e.g. a site built from
 * your own portal), so a new kind of file or section without its headers fails.
 */
beforeAll(async () => {
  const siteDir = process.env.DEPLOY_TEST_SITE_DIR || (await builtDemoSite()).dir;
  files = await listFiles(siteDir);
});

/** Embed pages of one calendar: /embed/<calendar>/..., not the /embed/ guide itself. */
const isEmbedPage = (file: string) => /^embed\/[^/]+\/.+/.test(file);

function expectedContentType(file: string): string | undefined {
  if (file.endsWith(".ics")) return "text/calendar; charset=utf-8";
  if (/(^|\/)feed\.xml$/.test(file)) return "application/rss+xml; charset=utf-8";
  if (/(^|\/)atom\.xml$/.test(file)) return "application/atom+xml; charset=utf-8";
  if (/(^|\/)feed\.json$/.test(file)) return "application/feed+json; charset=utf-8";
  // The weekly digest's text version (src/digest).
  if (/(^|\/)digest\/latest\.txt$/.test(file)) return "text/plain; charset=utf-8";
  if (/^(api|oembed)\/.*\.json$/.test(file)) return "application/json";
  return undefined;
}

describe("netlify.toml", () => {
  const config = parse(readFileSync(NETLIFY_TOML_PATH, "utf8"));
  const table = (value: unknown) => value as TomlTable;

  it("should build with npm run build into _site on a supported Node", () => {
    const build = table(config.build);
    expect(build.command).toBe("npm run build");
    expect(build.publish).toBe("_site");
    expect(Number(table(build.environment).NODE_VERSION)).toBeGreaterThanOrEqual(20);
  });

  it("should persist the fetch cache and the published output between builds", () => {
    // Without the output, a build has nothing to keep as published and renders every file.
    expect(config.plugins).toContainEqual({
      package: "netlify-plugin-cache",
      inputs: { paths: [".cache", String(table(config.build).publish)] },
    });
  });

  it("should schedule the rebuild function that exists in the functions folder", () => {
    const schedule = readRebuildSchedule();
    expect(schedule).toBe("* * * * *");
    const directory = String(table(config.functions).directory);
    expect(existsSync(join(dirname(NETLIFY_TOML_PATH), directory, "scheduled-rebuild.mts"))).toBe(
      true,
    );
  });

  it("should keep browser caching inside one rebuild interval", () => {
    const cacheControl = headersFor("/", rules)["Cache-Control"] ?? "";
    const seconds = (name: string) =>
      Number(new RegExp(`${name}=(\\d+)`).exec(cacheControl)?.[1] ?? Number.NaN);
    const interval = scheduleToMinutes(readRebuildSchedule() ?? "@hourly") * 60;

    expect(seconds("max-age") + seconds("stale-while-revalidate")).toBeLessThanOrEqual(interval);
  });
});

describe("headersFor", () => {
  it("should never let two rules set the same header for a file", () => {
    const conflicts = files.flatMap((file) =>
      headerConflicts(urlPathOf(file), rules).map(
        (conflict) => `${file}: ${conflict.header} from ${conflict.rules.join(" and ")}`,
      ),
    );
    expect(conflicts).toEqual([]);
  });

  it("should give every feed, calendar and JSON file its registered content type", () => {
    const wrong = files
      .map((file) => ({
        file,
        want: expectedContentType(file),
        got: headersFor(urlPathOf(file), rules)["Content-Type"],
      }))
      .filter(({ want, got }) => want !== got);
    expect(wrong).toEqual([]);
    expect(files.some((file) => expectedContentType(file) === "text/calendar; charset=utf-8")).toBe(
      true,
    );
  });

  it("should forbid framing every page except the embed pages", () => {
    const pages = files.filter((file) => file.endsWith(".html") && !isEmbedPage(file));
    expect(pages.length).toBeGreaterThan(0);
    for (const file of pages) {
      const headers = headersFor(urlPathOf(file), rules);
      expect(headers["Content-Security-Policy"], file).toContain("frame-ancestors 'none'");
      expect(headers["X-Frame-Options"], file).toBe("DENY");
    }
  });

  it("should let any origin frame the embed pages", () => {
    const embeds = files.filter(isEmbedPage);
    expect(embeds.length).toBeGreaterThan(0);
    for (const file of embeds.filter((name) => name.endsWith(".html"))) {
      const headers = headersFor(urlPathOf(file), rules);
      expect(headers["Content-Security-Policy"], file).toContain("frame-ancestors *");
      expect(headers["X-Frame-Options"], file).toBeUndefined();
    }
  });

  it("should allow only same-origin scripts and styles on every page, and WebAssembly only on the search page", () => {
    for (const file of files.filter((name) => name.endsWith(".html"))) {
      const csp = headersFor(urlPathOf(file), rules)["Content-Security-Policy"] ?? "";
      const directives = new Map(
        csp
          .split(";")
          .map((part) => part.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values.join(" ")]),
      );
      // The embed pages name the site's origin beside 'self', which WebKit matches
      // against the opaque origin of a sandboxed frame (src/hosts/embed-policy.ts).
      const self = isEmbedPage(file) ? `'self' ${new URL(DEMO_SITE_URL).origin}` : "'self'";
      expect(directives.get("default-src"), file).toBe(self);
      // Pagefind's search code is WebAssembly: only the search page may compile it.
      expect(directives.get("script-src"), file).toBe(
        file.startsWith("search/") ? "'self' 'wasm-unsafe-eval'" : self,
      );
      expect(directives.get("style-src"), file).toBe(self);
      expect(directives.get("object-src"), file).toBe("'none'");
    }
  });

  it("should send nosniff and the referrer policy with every file", () => {
    for (const file of files) {
      const headers = headersFor(urlPathOf(file), rules);
      expect(headers["X-Content-Type-Options"], file).toBe("nosniff");
      expect(headers["Referrer-Policy"], file).toBe("strict-origin-when-cross-origin");
    }
  });

  it("should open CORS on the public JSON, oEmbed, feeds and calendars but not on pages", () => {
    for (const file of files) {
      const open = /^(api|oembed)\//.test(file) || expectedContentType(file) !== undefined;
      const origin = headersFor(urlPathOf(file), rules)["Access-Control-Allow-Origin"];
      expect(origin, file).toBe(open ? "*" : undefined);
    }
  });

  it("should keep every copied image inert when opened on its own: no script, a sandbox, its own type, a download", () => {
    // The demo's images are SVG, the kind that could carry a script; they are
    // published drawn into PNGs, and the rule holds whatever slips through.
    const media = files.filter((file) => file.startsWith("media/"));
    expect(media.length).toBeGreaterThan(0);
    for (const file of media) {
      const headers = headersFor(urlPathOf(file), rules);
      expect(headers["Content-Security-Policy"], file).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      expect(headers["X-Content-Type-Options"], file).toBe("nosniff");
      expect(headers["Content-Disposition"], file).toBe("attachment");
    }
  });

  it("should download single events and keep subscriptions inline", () => {
    expect(headersFor("/calendars/x/events/y/event.ics", rules)["Content-Disposition"]).toBe(
      'attachment; filename="event.ics"',
    );
    expect(headersFor("/calendar.ics", rules)["Content-Disposition"]).toBeUndefined();
    expect(headersFor("/calendars/x/calendar.ics", rules)["Content-Disposition"]).toBeUndefined();
  });

  it("should ignore the query string when matching", () => {
    expect(headersFor("/embed/x/?theme=dark&count=5", rules)["Content-Security-Policy"]).toContain(
      "frame-ancestors *",
    );
  });
});

describe("pathPattern", () => {
  it("should match Netlify's placeholders and wildcards", () => {
    expect(pathPattern("/:page").test("/subscribe/")).toBe(true);
    expect(pathPattern("/:page").test("/calendars/x/")).toBe(false);
    expect(pathPattern("/embed/:calendar/*").test("/embed/")).toBe(false);
    expect(pathPattern("/embed/:calendar/*").test("/embed/x/")).toBe(true);
    expect(pathPattern("/*.ics").test("/calendars/x/events/y/event.ics")).toBe(true);
    expect(pathPattern("/*.ics").test("/xics")).toBe(false);
    expect(pathPattern("/*/feed.xml").test("/feed.xml")).toBe(true);
    expect(pathPattern("/*").test("/")).toBe(true);
    expect(pathPattern("/").test("/index.html")).toBe(false);
  });
});
