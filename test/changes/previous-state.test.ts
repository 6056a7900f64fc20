import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  loadPreviousState,
  savePublishedState,
  stateFileHash,
} from "../../src/changes/previous-state.ts";
import type { PublishedState } from "../../src/changes/published-state.ts";
import {
  publishedStateFolder,
  publishedStatePath,
  STATE_FILE,
} from "../../src/changes/state-location.ts";
import { NOW } from "../helpers/clock.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const SITE = "https://events.example.org";

const RECORD = {
  calendarId: "culture",
  id: "a",
  title: "Open Studio Night",
  start: "2026-04-10T19:30:00+02:00",
  end: "2026-04-10T22:00:00+02:00",
  allDay: false,
  timeZone: "Europe/Amsterdam",
  status: "scheduled" as const,
  sequence: 4,
  url: `${SITE}/calendars/culture/events/a/`,
  uid: "culture.a@events.example.org",
  categories: [{ id: "arts", name: "Arts" }],
  previousStarts: [],
  rescheduledAt: null,
};

const STATE: PublishedState = {
  version: 1,
  siteUrl: SITE,
  publishedAt: NOW,
  events: [RECORD],
  removed: [
    {
      ...RECORD,
      id: "gone",
      status: "cancelled",
      uid: "culture.gone@events.example.org",
      url: `${SITE}/calendars/culture/events/gone/`,
      removedAt: NOW,
      until: "2026-04-19T12:00:00Z",
      reason: { kind: "deleted" },
    },
  ],
  announcements: [],
};

let cacheDir: string;
let output: string;
let lines: string[];
const log = (line: string) => lines.push(line);

/** What a site publishes as public JSON, with one event left out of older sites' fields. */
function publicJson(siteUrl: string): Record<string, [number, unknown]> {
  const { uid: _uid, sequence: _sequence, ...older } = RECORD;
  return {
    "/api/calendars.json": [
      200,
      { version: 1, calendars: [{ id: "culture", segment: "culture" }] },
    ],
    "/api/calendars/culture/events.json": [200, { version: 1, events: [older] }],
    "/api/changes.json": [200, { version: 1, announcements: [], removed: STATE.removed }],
    "/api/manifest.json": [200, { version: 1, siteUrl, generatedAt: "2026-03-20T12:00:00.000Z" }],
  };
}

/** The state that public JSON stands for. */
const FROM_PUBLIC_JSON: PublishedState = {
  ...STATE,
  publishedAt: "2026-03-20T12:00:00.000Z",
  events: [{ ...RECORD, sequence: 0 }],
};

/** A live site on loopback serving `files` (path -> [status, body]). */
async function liveSite(files: Record<string, [number, unknown]>): Promise<string> {
  const { origin } = await serveOnLoopback((request, response) => {
    const [status, body] = files[request.url ?? ""] ?? [404, { error: "not found" }];
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  return origin;
}

/** An output folder holding `files` as a build leaves them. */
function writeOutput(dir: string, files: Record<string, [number, unknown]>): void {
  for (const [path, [, body]] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(body));
  }
}

/** The state the build into `output` would compare with, for SITE published at `publishedSite` (or nowhere). */
const loadPrevious = (publishedSite: string | null, siteUrl = SITE) =>
  loadPreviousState({ cacheDir, output, siteUrl, publishedSite, log });

beforeEach(() => {
  const work = tempDir("ecp-state-");
  cacheDir = join(work, ".cache");
  output = join(work, "out", "_site");
  lines = [];
});

describe("publishedStatePath", () => {
  it("should give each output folder and SITE_URL a folder of its own in the cache folder", () => {
    const path = publishedStatePath(cacheDir, output, SITE);
    expect(dirname(path)).toBe(publishedStateFolder(cacheDir, output, SITE));
    expect(path.startsWith(join(cacheDir, "published"))).toBe(true);
    expect(path.endsWith(`/${STATE_FILE}`)).toBe(true);
    // The same folder, however it is named.
    expect(publishedStatePath(cacheDir, `${output}/`, `${SITE}/`)).toBe(path);
    expect(publishedStatePath(cacheDir, "_site", SITE)).toBe(
      publishedStatePath(cacheDir, resolve("_site"), SITE),
    );
    // Another output folder, another site: another place.
    const others = [
      publishedStatePath(cacheDir, join(output, "..", "trial"), SITE),
      publishedStatePath(cacheDir, output, "http://localhost:8080"),
      publishedStatePath(cacheDir, "_site", SITE),
    ];
    expect(new Set([path, ...others]).size).toBe(4);
  });
});

describe("loadPreviousState", () => {
  it("should read back what savePublishedState kept for the output folder and SITE_URL", async () => {
    const { file, hash } = await savePublishedState({ cacheDir, output }, STATE);
    expect(file).toBe(publishedStatePath(cacheDir, output, SITE));
    // The hash of what was written, which the publish records without reading the file back.
    expect(hash).toBe(stateFileHash(readFileSync(file)));
    const found = await loadPrevious(null, `${SITE}/`);
    expect(found).toEqual({ state: STATE, source: file });
    expect(lines).toEqual([`previous state: ${file} (1 events, 1 removed, 0 announced)`]);
  });

  it("should write a large state as JSON.stringify writes it, in pieces, and read it back", async () => {
    // 3,000 events: far more than one piece of 64 KB; no activities, which JSON leaves out.
    const events = Array.from({ length: 3_000 }, (_, i) => ({ ...RECORD, id: `e${i}` }));
    const large: PublishedState = { ...STATE, events, activities: undefined };
    const { file, hash } = await savePublishedState({ cacheDir, output }, large);
    const text = readFileSync(file, "utf8");
    expect(text.length).toBeGreaterThan(4 * 65_536);
    expect(text).toBe(`${JSON.stringify(large)}\n`);
    expect(hash).toBe(stateFileHash(text));
    expect((await loadPrevious(null, SITE)).state?.events).toHaveLength(3_000);
  });

  it("should neither read nor replace a site's state in a trial build into another folder or for another SITE_URL", async () => {
    const { file } = await savePublishedState({ cacheDir, output }, STATE);
    const kept = readFileSync(file, "utf8");
    const trial = join(dirname(output), "trial");
    const trialState = { ...STATE, events: [], removed: [] };

    expect(
      (
        await loadPreviousState({
          cacheDir,
          output: trial,
          siteUrl: SITE,
          publishedSite: null,
          log,
        })
      ).state,
    ).toBeNull();
    await savePublishedState({ cacheDir, output: trial }, trialState);
    const demo = { ...trialState, siteUrl: "http://localhost:8080" };
    expect((await loadPrevious(null, demo.siteUrl)).state).toBeNull();
    await savePublishedState({ cacheDir, output }, demo);

    expect(readFileSync(file, "utf8")).toBe(kept);
    expect((await loadPrevious(null)).state).toEqual(STATE);
  });

  it("should carry over the state earlier versions kept, for the default output folder and the same SITE_URL only", async () => {
    const legacy = join(cacheDir, STATE_FILE);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(legacy, JSON.stringify(STATE));
    const next = publishedStatePath(cacheDir, "_site", SITE);

    const fromDefault = await loadPreviousState({
      cacheDir,
      output: "_site",
      siteUrl: SITE,
      publishedSite: null,
      log,
    });
    expect(fromDefault).toEqual({ state: STATE, source: legacy });
    expect(lines).toEqual([
      `previous state: ${legacy} (1 events, 1 removed, 0 announced; kept there by earlier versions, from now on at ${next})`,
    ]);

    // Not for another output folder: that may as well have been a trial.
    expect((await loadPrevious(null)).state).toBeNull();
    // Not for another SITE_URL (whatever the project's own _site holds, it is not of this one).
    lines = [];
    const other = await loadPreviousState({
      cacheDir,
      output: "_site",
      siteUrl: "https://other.example.net",
      publishedSite: null,
      log,
    });
    expect(other.state).toBeNull();
    expect(lines[0]).toBe(
      `previous state: ${legacy} was written for ${SITE}, not https://other.example.net; ignored`,
    );

    // Once kept at its own place, the old one goes, so it is never read again instead.
    await savePublishedState({ cacheDir, output: "_site" }, { ...STATE, events: [] });
    expect(existsSync(legacy)).toBe(false);
    expect(JSON.parse(readFileSync(next, "utf8")).events).toEqual([]);
  });

  it("should leave the old state of another site where it is", async () => {
    const legacy = join(cacheDir, STATE_FILE);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(legacy, JSON.stringify(STATE));
    await savePublishedState(
      { cacheDir, output: "_site" },
      { ...STATE, siteUrl: "http://localhost:8080" },
    );
    expect(JSON.parse(readFileSync(legacy, "utf8"))).toEqual(STATE);
  });

  it("should fall back on the output folder's public JSON when the state is corrupt, with a local SITE_URL", async () => {
    const file = publishedStatePath(cacheDir, output, SITE);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "{ not json");
    writeOutput(output, publicJson(SITE));

    const found = await loadPrevious(null);

    expect(found).toEqual({ state: FROM_PUBLIC_JSON, source: join(output, "api/") });
    expect(lines).toEqual([
      `previous state: ${file} is not JSON; ignored`,
      `previous state: ${join(output, "api/")} (1 events, 1 removed, 0 announced, read from the output folder)`,
    ]);
  });

  it("should take the output folder of another SITE_URL for nothing, and read the live site", async () => {
    writeOutput(output, publicJson("http://localhost:8080"));
    const origin = await liveSite(publicJson(SITE));

    const found = await loadPrevious(origin);

    expect(found).toEqual({ state: FROM_PUBLIC_JSON, source: `${origin}/api/` });
    expect(lines).toEqual([
      `previous state: ${join(output, "api/")} was built for http://localhost:8080, not ${SITE}; ignored`,
      `previous state: ${origin}/api/ (1 events, 1 removed, 0 announced, read from the live site)`,
    ]);
  });

  it("should say so and read on when the output folder's public JSON is broken", async () => {
    writeOutput(output, publicJson(SITE));
    writeFileSync(join(output, "api/calendars/culture/events.json"), "{ half");
    const found = await loadPrevious(null);
    expect(found.state).toBeNull();
    expect(lines).toEqual([
      `previous state: ${join(output, "api/")}: ${join(output, "api/calendars/culture/events.json")} is not JSON; ignored`,
      `previous state: none (no usable ${publishedStatePath(cacheDir, output, SITE)} or ${join(output, "api/")}, and nothing published to read); no changes known`,
    ]);
  });

  it("should ignore a corrupt state, or one of another site, and know no changes when nothing else was published", async () => {
    const file = publishedStatePath(cacheDir, output, SITE);
    mkdirSync(dirname(file), { recursive: true });
    for (const [content, reason] of [
      ["{ not json", "is not JSON"],
      [JSON.stringify({ version: 9 }), "is not a published state (version 9 is not 1)"],
      [
        JSON.stringify({ ...STATE, siteUrl: "http://localhost:8080" }),
        `was written for http://localhost:8080, not ${SITE}`,
      ],
    ]) {
      lines = [];
      writeFileSync(file, content ?? "");
      const found = await loadPrevious(null);
      expect(found.state).toBeNull();
      expect(lines).toEqual([
        `previous state: ${file} ${reason}; ignored`,
        `previous state: none (no usable ${file} or ${join(output, "api/")}, and nothing published to read); no changes known`,
      ]);
    }
  });

  it("should read no output folder for a run that publishes nothing", async () => {
    writeOutput(output, publicJson(SITE));
    const found = await loadPreviousState({ cacheDir, siteUrl: SITE, publishedSite: null, log });
    expect(found.state).toBeNull();
    expect(lines).toEqual([
      `previous state: none (no usable ${publishedStatePath(cacheDir, "_site", SITE)}, and nothing published to read); no changes known`,
    ]);
  });

  it("should drop records it cannot read, and keep the rest", async () => {
    const file = publishedStatePath(cacheDir, output, SITE);
    mkdirSync(dirname(file), { recursive: true });
    const broken = { ...RECORD, id: "broken", start: "someday" };
    writeFileSync(file, JSON.stringify({ ...STATE, events: [RECORD, broken, 42] }));
    const found = await loadPrevious(null);
    expect(found.state?.events.map((r) => r.id)).toEqual(["a"]);
  });

  it("should fall back on the live site's public JSON, filling what older sites lack", async () => {
    const origin = await liveSite(publicJson(SITE));
    const found = await loadPrevious(origin);
    expect(found.state).toEqual(FROM_PUBLIC_JSON);
    expect(lines.at(-1)).toBe(
      `previous state: ${origin}/api/ (1 events, 1 removed, 0 announced, read from the live site)`,
    );
  });

  it("should know no changes when the live site was built for another SITE_URL", async () => {
    const origin = await liveSite(publicJson("https://other.example.org"));
    const found = await loadPrevious(origin);
    expect(found.state).toBeNull();
    expect(lines.at(-1)).toBe(
      `previous state: none (${origin}/api/ was built for https://other.example.org, not ${SITE}); no changes known`,
    );
  });

  it("should know no changes when the live site is incomplete rather than take a calendar for emptied", async () => {
    const origin = await liveSite({
      "/api/calendars.json": [
        200,
        {
          version: 1,
          calendars: [
            { id: "culture", segment: "culture" },
            { id: "city", segment: "city" },
          ],
        },
      ],
      "/api/calendars/culture/events.json": [200, { version: 1, events: [RECORD] }],
      "/api/calendars/city/events.json": [503, { error: "try later" }],
    });
    const found = await loadPrevious(origin);
    expect(found.state).toBeNull();
    expect(lines.at(-1)).toBe(
      `previous state: none (${origin}/api/: The published site failed (HTTP 503) for ${origin}/api/calendars/city/events.json (after 3 attempts)); no changes known`,
    );
  });

  it("should take a site with nothing published for a first build", async () => {
    const origin = await liveSite({});
    const first = await loadPrevious(origin);
    expect(first.state).toBeNull();
    expect(lines.at(-1)).toContain("has no published site yet");
  });

  it("should replace the state file whole", async () => {
    await savePublishedState({ cacheDir, output }, STATE);
    await savePublishedState({ cacheDir, output }, { ...STATE, events: [] });
    expect(
      JSON.parse(readFileSync(publishedStatePath(cacheDir, output, SITE), "utf8")).events,
    ).toEqual([]);
  });
});
