import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.ts";
import { headerConflicts, headersFor } from "../../src/hosts/headers.ts";
import { renderCloudflareHeaders } from "../../src/hosts/headers-file.ts";
import { hostOutputs } from "../../src/hosts/host-files.ts";
import { siteHeaderRules } from "../../src/hosts/site-rules.ts";
import { headersFromFile, readHeadersFile } from "../helpers/headers-file.ts";

/*
 * netlify.toml's rules for a site in several languages: each language's
 * folder is a whole site, whose files need what the root's get.
 */

const site = (folders: readonly string[]) => ({
  url: "https://example.org",
  map: null,
  languages: ["", ...folders].map((folder) => ({ folder })),
});
const RULES = siteHeaderRules(site(["fr/", "pt-br/"]));

/** A file of each kind the site publishes, by its path at the site's root. */
const PATHS = [
  "/",
  "/404.html",
  "/calendars/x/",
  "/calendars/x/events/y/",
  "/calendars/x/events/y/event.ics",
  "/calendars/x/feed.xml",
  "/calendar.ics",
  "/search/",
  "/embed/",
  "/embed/x/",
  "/embed/x/events/y/",
  "/embed.js",
  "/api/calendars.json",
  "/oembed/x.json",
  "/places/p/",
  "/digest/latest.txt",
];

describe("the rules of a site in several languages", () => {
  it("should give each file of a language's folder the headers of the root's, and no header twice", () => {
    for (const folder of ["fr", "pt-br"]) {
      for (const path of PATHS) {
        expect(headersFor(`/${folder}${path}`, RULES), `/${folder}${path}`).toEqual(
          headersFor(path, RULES),
        );
        expect(headerConflicts(`/${folder}${path}`, RULES)).toEqual([]);
      }
    }
    // A language's pages are not framed, its widget is framed by anyone.
    expect(headersFor("/fr/calendars/x/", RULES)["X-Frame-Options"]).toBe("DENY");
    expect(headersFor("/fr/embed/x/", RULES)["Content-Security-Policy"]).toContain(
      "frame-ancestors *",
    );
  });

  it("should leave a site in one language's rules as they were", () => {
    expect(siteHeaderRules(site([]))).toEqual(
      siteHeaderRules({ url: "https://example.org", map: null }),
    );
  });

  it("should send Netlify the languages' rules in _headers, and each language's 404 page", () => {
    const files = hostOutputs("netlify", RULES).files;
    const text = (path: string) => {
      const group = files.find((candidate) => candidate.path(candidate.items[0]) === path);
      return String(group?.render(group.items[0]));
    };
    const rules = readHeadersFile(text("/_headers"));
    // Netlify sends netlify.toml's own with them: together, what the root's file gets.
    for (const path of PATHS) {
      const sent = { ...headersFor(`/fr${path}`), ...headersFromFile(rules, `/fr${path}`) };
      expect(sent, path).toEqual(headersFor(path, RULES));
    }
    expect(
      text("/_redirects")
        .split("\n")
        .filter((line) => line && !line.startsWith("#")),
    ).toEqual(["/fr/*  /fr/404.html  404", "/pt-br/*  /pt-br/404.html  404"]);
    expect(hostOutputs("netlify", siteHeaderRules(site([]))).files).toHaveLength(1);
  });

  it("should say when Cloudflare Pages would drop the languages' rules", () => {
    const many = siteHeaderRules(site(["fr/", "de/", "nl/", "es/"]));
    expect(() => renderCloudflareHeaders(many)).toThrow(ConfigError);
    expect(() => renderCloudflareHeaders(many)).toThrow(/copies for SITE_LANGUAGES' folders/);
  });
});
