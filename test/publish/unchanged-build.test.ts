import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { stateFileHash } from "../../src/changes/previous-state.ts";
import { publishedStateFolder, publishedStatePath } from "../../src/changes/state-location.ts";
import { codeFingerprint } from "../../src/code-fingerprint.ts";
import { type BuildConfig, readBuildConfig } from "../../src/config/build-config.ts";
import { readMetrics } from "../../src/metrics.ts";
import { eventDigest } from "../../src/model/event-digest.ts";
import type { CalendarEvent, PortalSnapshot } from "../../src/model/types.ts";
import { buildWarningsPath, writeBuildWarnings } from "../../src/publish/build-warnings.ts";
import { fileListPath, fileSignatures, writeFileList } from "../../src/publish/output-files.ts";
import {
  type BuildInputsParts,
  buildInputsDigest,
  findUnchanged,
  INPUTS_RECORD_FILE,
  publishedUnderOtherCode,
  recordPublishedInputs,
} from "../../src/publish/unchanged-build.ts";
import { contentHash } from "../../src/render/published-files.ts";
import { hoursAfterNow, NOW, NOW_MS } from "../helpers/clock.ts";
import { calendarEvent } from "../helpers/events.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const root = tempDir("ecp-unchanged-unit-");
let sites = 0;

function config(now = NOW, more: Record<string, string> = {}): BuildConfig {
  return readBuildConfig({
    SITE_URL: "http://localhost:8080",
    SITE_NOW: now,
    EVENT_API_URL: "http://127.0.0.1:9/v1",
    EVENT_API_TOKEN: "secret-token-1",
    EVENT_API_CACHE_DIR: join(root, "cache"),
    ...more,
  });
}

const snapshot: PortalSnapshot = {
  source: "http://127.0.0.1:9/v1",
  fetchedAt: NOW,
  calendars: [],
  events: [],
  warnings: [],
};

function parts(overrides: Partial<BuildInputsParts> = {}): BuildInputsParts {
  return {
    config: config(),
    snapshot,
    media: [],
    lists: null,
    sources: null,
    merged: [],
    ...overrides,
  };
}

const statePath = (output: string) => {
  const path = publishedStatePath(join(root, "cache"), output, "http://localhost:8080");
  mkdirSync(dirname(path), { recursive: true });
  return path;
};

/** An output folder with two files, a published state, published with a record of `inputs` until an hour from NOW. */
async function publishedSite(inputs: string): Promise<string> {
  const output = join(root, `site-${++sites}`);
  const files = { "index.html": "<p>events</p>", "api/manifest.json": '{"version":1}\n' };
  const hashes = new Map<string, string>();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(output, path, ".."), { recursive: true });
    writeFileSync(join(output, path), content);
    hashes.set(path, contentHash(content));
  }
  const settings = config();
  const state = "{}";
  writeFileSync(statePath(output), state);
  writeFileList(
    fileListPath(settings, output),
    hashes,
    new Map(),
    fileSignatures(output, hashes.keys()),
  );
  await writeBuildWarnings(buildWarningsPath(settings.cacheDir, output, settings.site.url), {
    version: 1,
    siteUrl: settings.site.url,
    output,
    now: NOW,
    warnings: [],
  });
  await recordPublishedInputs(
    settings,
    output,
    { inputs, builtAt: NOW_MS, nextChangeAt: Date.parse(hoursAfterNow(1)) },
    { manifest: hashes.get("api/manifest.json"), state: stateFileHash(state) },
  );
  return output;
}

describe("buildInputsDigest", () => {
  it("should leave out the clock and the token, and take every setting and record", () => {
    const digest = buildInputsDigest(parts());
    expect(buildInputsDigest(parts({ config: config(hoursAfterNow(5)) }))).toBe(digest);
    expect(
      buildInputsDigest(parts({ config: config(NOW, { EVENT_API_TOKEN: "secret-token-2" }) })),
    ).toBe(digest);
    // With modification times in the data, the fetch time is not an input.
    expect(buildInputsDigest(parts({ config: config(NOW, { SITE_TITLE: "Other" }) }))).not.toBe(
      digest,
    );
    const calendar = {
      id: "c",
      name: "C",
      description: null,
      timeZone: "UTC",
      updatedAt: NOW,
    } as unknown as PortalSnapshot["calendars"][number];
    const withCalendar = { ...snapshot, calendars: [calendar] };
    const one = buildInputsDigest(parts({ snapshot: withCalendar }));
    expect(one).not.toBe(digest);
    expect(
      buildInputsDigest(parts({ snapshot: { ...withCalendar, fetchedAt: hoursAfterNow(1) } })),
    ).toBe(one);
    // Without them (the feeds then date themselves by the fetch), it is.
    expect(
      buildInputsDigest(parts({ snapshot: { ...snapshot, fetchedAt: hoursAfterNow(1) } })),
    ).not.toBe(digest);
    expect(buildInputsDigest(parts({ merged: ["an event merged"] }))).not.toBe(digest);
    // The API's address is a setting: the demo's portal, on another port each build, is the same data.
    expect(
      buildInputsDigest(parts({ snapshot: { ...snapshot, source: "http://127.0.0.1:10/v1" } })),
    ).toBe(digest);
  });

  it("should take every field of every event, each by the digest the outputs share", () => {
    const event = (title: string) =>
      calendarEvent({
        id: "e1",
        calendarId: "c",
        title,
        start: "2026-12-01T19:00:00+01:00",
        end: "2026-12-01T21:00:00+01:00",
      });
    const withEvent = (title: string) => ({ ...snapshot, events: [event(title)] });
    const one = buildInputsDigest(parts({ snapshot: withEvent("Concert") }));
    expect(one).not.toBe(buildInputsDigest(parts()));
    expect(buildInputsDigest(parts({ snapshot: withEvent("Concert") }))).toBe(one);
    expect(buildInputsDigest(parts({ snapshot: withEvent("Concert!") }))).not.toBe(one);
    const descriptions = { ...snapshot, events: [{ ...event("Concert"), summary: "Bach" }] };
    expect(buildInputsDigest(parts({ snapshot: descriptions }))).not.toBe(one);
    // An event whose digest is known (read back with it from the kept normalized
    // events, or made by an output) is not written out and hashed again.
    const digested = () => readMetrics().counters["events.digested"] ?? 0;
    const known = withEvent("Known");
    eventDigest(known.events[0] as CalendarEvent);
    const before = digested();
    buildInputsDigest(parts({ snapshot: known }));
    expect(digested()).toBe(before);
    buildInputsDigest(parts({ snapshot: withEvent("New") }));
    expect(digested()).toBe(before + 1);
  });
});

describe("publishedUnderOtherCode", () => {
  it("should tell a publish under other code from one under this code, and not guess without a record", async () => {
    const settings = config();
    const output = await publishedSite("inputs");
    // Published by this code (the record names its fingerprint).
    expect(publishedUnderOtherCode(settings, output)).toBe(false);
    const record = join(
      publishedStateFolder(settings.cacheDir, output, settings.site.url),
      INPUTS_RECORD_FILE,
    );
    const written = JSON.parse(readFileSync(record, "utf8")) as Record<string, unknown>;
    expect(written.code).toBe(codeFingerprint());
    writeFileSync(record, JSON.stringify({ ...written, code: "an older version" }));
    expect(publishedUnderOtherCode(settings, output)).toBe(true);
    // A record from before the fingerprint was kept, or none: not known to differ.
    const { code: _, ...older } = written;
    writeFileSync(record, JSON.stringify(older));
    expect(publishedUnderOtherCode(settings, output)).toBe(false);
    rmSync(record);
    expect(publishedUnderOtherCode(settings, output)).toBe(false);
  });
});

describe("findUnchanged", () => {
  it("should find the site as published for the same inputs, from the publish's clock to before the next change", async () => {
    const output = await publishedSite("inputs-a");
    const find = (now: string, inputs = "inputs-a") =>
      findUnchanged({ config: config(now), output, inputs });
    expect(find(NOW)?.list.hashes.size).toBe(2);
    expect(find(new Date(Date.parse(hoursAfterNow(1)) - 1).toISOString())).not.toBeNull();
    expect(find(hoursAfterNow(1))).toBeNull();
    expect(find(new Date(NOW_MS - 1).toISOString())).toBeNull();
    expect(find(NOW, "inputs-b")).toBeNull();
  });

  it("should find a folder restored whole as a copy by its files' bytes, and not one with some files touched", async () => {
    const output = await publishedSite("inputs-a");
    const copy = `${output}-copy`;
    cpSync(output, copy, { recursive: true });
    rmSync(output, { recursive: true });
    cpSync(copy, output, { recursive: true });
    const restored = findUnchanged({ config: config(), output, inputs: "inputs-a" });
    // Every file read once, each with its new signature to record.
    expect([...(restored?.resigned.keys() ?? [])].sort()).toEqual([
      "api/manifest.json",
      "index.html",
    ]);

    const touched = await publishedSite("inputs-a");
    // The same bytes written again: its signature moved, the other file's did not.
    writeFileSync(join(touched, "index.html"), "<p>events</p>");
    expect(findUnchanged({ config: config(), output: touched, inputs: "inputs-a" })).toBeNull();
  });

  it("should not find it when a file or the published state was replaced since, or when a publish recorded no inputs", async () => {
    const edited = await publishedSite("inputs-a");
    writeFileSync(join(edited, "index.html"), "<p>other</p>");
    expect(findUnchanged({ config: config(), output: edited, inputs: "inputs-a" })).toBeNull();

    const restated = await publishedSite("inputs-a");
    // The published state the changes are worked out against, replaced since.
    writeFileSync(statePath(restated), "[");
    expect(findUnchanged({ config: config(), output: restated, inputs: "inputs-a" })).toBeNull();

    const merged = await publishedSite("inputs-a");
    // A split build's merge publishes without a record: the last one is removed.
    await recordPublishedInputs(config(), merged, null, { manifest: undefined, state: null });
    expect(findUnchanged({ config: config(), output: merged, inputs: "inputs-a" })).toBeNull();
  });
});
