import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  loadPreviousState,
  STATE_FILE,
  savePublishedState,
} from "../../src/changes/previous-state.ts";
import type { PublishedState } from "../../src/changes/published-state.ts";
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
let lines: string[];
const log = (line: string) => lines.push(line);

/** A live site on loopback serving `files` (path -> [status, body]). */
async function liveSite(files: Record<string, [number, unknown]>): Promise<string> {
  const { origin } = await serveOnLoopback((request, response) => {
    const [status, body] = files[request.url ?? ""] ?? [404, { error: "not found" }];
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  return origin;
}

/** The state the build would compare with, for SITE published at `publishedSite` (or nowhere). */
const loadPrevious = (publishedSite: string | null) =>
  loadPreviousState({ cacheDir, siteUrl: SITE, publishedSite, log });

beforeEach(() => {
  cacheDir = tempDir("ecp-state-");
  lines = [];
});

describe("loadPreviousState", () => {
  it("should read back what savePublishedState kept in the cache folder", async () => {
    const file = await savePublishedState(cacheDir, STATE);
    expect(file).toBe(join(cacheDir, STATE_FILE));
    const found = await loadPreviousState({
      cacheDir,
      siteUrl: `${SITE}/`,
      publishedSite: null,
      log,
    });
    expect(found).toEqual({ state: STATE, source: file });
    expect(lines).toEqual([`previous state: ${file} (1 events, 1 removed, 0 announced)`]);
  });

  it("should ignore a corrupt state, or one of another site, and know no changes", async () => {
    const file = join(cacheDir, STATE_FILE);
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
        `previous state: none (no usable ${file}, and nothing published to read); no changes known`,
      ]);
    }
  });

  it("should drop records it cannot read, and keep the rest", async () => {
    const file = join(cacheDir, STATE_FILE);
    const broken = { ...RECORD, id: "broken", start: "someday" };
    writeFileSync(file, JSON.stringify({ ...STATE, events: [RECORD, broken, 42] }));
    const found = await loadPrevious(null);
    expect(found.state?.events.map((r) => r.id)).toEqual(["a"]);
  });

  it("should fall back on the live site's public JSON, filling what older sites lack", async () => {
    const { uid: _uid, sequence: _sequence, ...older } = RECORD;
    const origin = await liveSite({
      "/api/calendars.json": [
        200,
        { version: 1, calendars: [{ id: "culture", segment: "culture" }] },
      ],
      "/api/calendars/culture/events.json": [200, { version: 1, events: [older] }],
      "/api/changes.json": [200, { version: 1, announcements: [], removed: STATE.removed }],
      "/api/manifest.json": [200, { version: 1, generatedAt: "2026-03-20T12:00:00.000Z" }],
    });
    const found = await loadPrevious(origin);
    expect(found.state).toEqual({
      ...STATE,
      publishedAt: "2026-03-20T12:00:00.000Z",
      events: [{ ...RECORD, sequence: 0 }],
    });
    expect(lines.at(-1)).toBe(
      `previous state: ${origin}/api/ (1 events, 1 removed, 0 announced, read from the live site)`,
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
    await savePublishedState(cacheDir, STATE);
    await savePublishedState(cacheDir, { ...STATE, events: [] });
    expect(JSON.parse(readFileSync(join(cacheDir, STATE_FILE), "utf8")).events).toEqual([]);
  });
});
