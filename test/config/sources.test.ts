import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBuildConfig } from "../../src/config/build-config.ts";
import { readSources } from "../../src/config/sources.ts";
import { configRefusal } from "../helpers/config-refusal.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const dir = tempDir("sources-config-");
const URL = "https://events.example.org";
let files = 0;

/** A sources file holding `sources`, and the environment that names it. */
function fileEnv(sources: unknown, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  files += 1;
  const file = join(dir, `sources-${files}.json`);
  writeFileSync(file, typeof sources === "string" ? sources : JSON.stringify(sources));
  return { EVENT_SOURCES_FILE: file, CULTURE_TOKEN: "culture-secret", ...env };
}

const culture = {
  id: "culture",
  name: "Culture House",
  url: "https://culture.example.org/api/v1/",
  tokenEnv: "CULTURE_TOKEN",
};

/** The one line a mistake in the file gives. */
function failure(env: NodeJS.ProcessEnv): string {
  const message = configRefusal(() => readSources(env));
  expect(message.startsWith(`EVENT_SOURCES_FILE (${env.EVENT_SOURCES_FILE}): `)).toBe(true);
  return message;
}

describe("sources", () => {
  it("should read no sources when EVENT_SOURCES_FILE is not set", () => {
    expect(readSources({ EVENT_API_URL: "https://portal.example.org/v1" })).toBeNull();
  });

  it("should read each portal's settings as the single-portal variables of the same names", () => {
    const env = fileEnv(
      [
        {
          ...culture,
          EVENT_API_AUTH: "header:X-Api-Key",
          EVENT_API_PAGING: "page",
          EVENT_API_CALENDARS: "community, sport",
          EVENT_API_FIELD_MAP: { event: { title: "headline" } },
        },
        { id: "city-hall", name: "City Hall", ics: "https://hall.example.org/agenda.ics?key=k" },
      ],
      { EVENT_API_CONCURRENCY: "3", EVENT_API_CACHE_DIR: "/tmp/one-cache" },
    );
    const config = readSources(env);
    const [portal, feed] = config?.sources ?? [];
    expect(portal?.kind).toBe("portal");
    if (portal?.kind !== "portal") return;
    expect(portal.api.baseUrl).toBe("https://culture.example.org/api/v1");
    expect(portal.api.token).toBe("culture-secret");
    expect(portal.api.auth).toEqual({ kind: "header", name: "X-Api-Key" });
    expect(portal.api.paging).toEqual({ kind: "page", param: "page", sizeParam: "per_page" });
    expect(portal.api.calendars).toEqual(["community", "sport"]);
    expect(portal.api.fieldMap.event.title).toBe("headline");
    // The site's cache and how hard portals are pressed come from the environment.
    expect(portal.api.concurrency).toBe(3);
    expect(portal.api.cacheDir).toBe("/tmp/one-cache");
    // Its trouble is its own: a week of last good data unless it says otherwise.
    expect(portal.api.allowStaleMs).toBe(7 * 86_400_000);
    expect(portal.primary).toBe(false);
    expect(feed).toMatchObject({
      kind: "ics",
      id: "city-hall",
      url: "https://hall.example.org/agenda.ics?key=k",
    });
  });

  it("should not let the single portal's settings leak into a source", () => {
    const env = fileEnv([culture], { EVENT_API_AUTH: "query:key", EVENT_API_CALENDARS: "x" });
    const [portal] = readSources(env)?.sources ?? [];
    expect(portal?.kind === "portal" && portal.api.auth).toEqual({ kind: "bearer" });
    expect(portal?.kind === "portal" && portal.api.calendars).toBeNull();
  });

  it("should refuse a token in the file in one line, without echoing it", () => {
    const message = failure(fileEnv([{ ...culture, token: "s3cret-value" }]));
    expect(message).toContain('source "culture": token: a token does not belong in the file');
    expect(message).not.toContain("s3cret-value");
    expect(failure(fileEnv([{ ...culture, EVENT_API_TOKEN: "x" }]))).toContain(
      "EVENT_API_TOKEN: a token does not belong in the file",
    );
  });

  it("should name the file, the source and the key of a mistake", () => {
    expect(failure(fileEnv([{ ...culture, EVENT_API_PAGING: "sideways" }]))).toMatch(
      /source "culture": EVENT_API_PAGING: "sideways" is not understood/,
    );
    expect(failure(fileEnv([{ ...culture, url: "ftp://x.example" }]))).toMatch(
      /source "culture": url: expected an http\(s\) URL/,
    );
    expect(failure(fileEnv([{ ...culture, tokenEnv: "MISSING_TOKEN" }]))).toMatch(
      /source "culture": tokenEnv: the environment variable MISSING_TOKEN is not set/,
    );
    expect(failure(fileEnv([{ ...culture, colour: "red" }]))).toMatch(
      /source "culture": colour: not a setting a source can have/,
    );
    expect(failure(fileEnv([{ ...culture, id: "Culture House" }]))).toMatch(
      /source 1: id: "Culture House" is not a slug/,
    );
    expect(failure(fileEnv([culture, culture]))).toMatch(/source "culture": id: used by two/);
    expect(failure(fileEnv("[{"))).toMatch(/invalid JSON/);
    expect(failure(fileEnv({ sources: [] }))).toMatch(/expected a non-empty JSON list/);
    expect(
      failure(fileEnv([{ id: "feed", name: "Feed", ics: "webcal://x.example/a.ics" }])),
    ).toMatch(/source "feed": ics: expected the http\(s\) URL of an iCalendar feed/);
  });

  it("should refuse a sources file beside EVENT_API_URL", () => {
    const env = fileEnv([culture], { EVENT_API_URL: "https://p.example/v1", SITE_URL: URL });
    expect(() => readBuildConfig(env)).toThrow(/EVENT_SOURCES_FILE and EVENT_API_URL are both set/);
  });

  it("should make the sources the build's portal", () => {
    const config = readBuildConfig(fileEnv([culture], { SITE_URL: URL }));
    expect(config.portal.kind).toBe("sources");
  });
});
