import { describe, expect, it } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { PublicJson } from "../../src/outputs/public-json.ts";
import { publicJsonFileGroups } from "../../src/outputs/public-json-files.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { NOW, NOW_DATETIME } from "../helpers/clock.ts";

const site = {
  url: "https://events.example.org",
  now: NOW_DATETIME,
  pastDays: 365,
};

function allOutputs(snapshot: PortalSnapshot, s = site): string {
  return [
    new PublicJson(snapshot, s).calendarsJson(),
    new PublicJson(snapshot, s).manifestJson(),
    ...snapshot.calendars.map((c) => new PublicJson(snapshot, s).eventsJson(c.id)),
  ].join("\n");
}

describe("public-json", () => {
  it("should list every calendar with absolute URLs, its path segment and event counts", () => {
    const doc = JSON.parse(new PublicJson(fixtureSnapshot, site).calendarsJson());
    expect(doc.version).toBe(1);
    expect(doc.calendars.map((c: { id: string }) => c.id)).toEqual(["community", "culture"]);
    expect(doc.calendars[0]).toEqual({
      id: "community",
      segment: "community",
      name: "Community",
      description: "Markets, walks and neighbourhood events.",
      timeZone: "Europe/Amsterdam",
      color: "#0b7285",
      url: "https://events.example.org/calendars/community/",
      eventsUrl: "https://events.example.org/api/calendars/community/events.json",
      icsUrl: "https://events.example.org/calendars/community/calendar.ics",
      embedUrl: "https://events.example.org/embed/community/",
      // The Winter Market (1 March) is past but inside the 365-day window.
      counts: { events: 3, upcoming: 2 },
    });
  });

  it("should publish each event with exactly the documented fields and an absolute page URL", () => {
    const doc = new PublicJson(fixtureSnapshot, site).eventsDocument("culture");
    expect(doc.version).toBe(1);
    expect(doc.calendar.id).toBe("culture");
    const hostile = doc.events.find((e) => e.id === "Weird/ID?<x>");
    expect(hostile).toBeDefined();
    expect(Object.keys(hostile ?? {})).toEqual([
      "id",
      "calendarId",
      "title",
      "start",
      "end",
      "allDay",
      "timeZone",
      "status",
      "attendanceMode",
      "onlineUrl",
      "location",
      "image",
      "categories",
      "access",
      "summary",
      "url",
      "sequence",
      "uid",
      "previousStarts",
      "rescheduledAt",
      "newDate",
    ]);
    expect(hostile?.uid).toBe(`culture._57656972642f49443f3c783e@events.example.org`);
    expect(hostile).toMatchObject({ previousStarts: [], rescheduledAt: null, newDate: false });
    expect(hostile?.title).toBe('<script>alert("x")</script> & "Quotes" \u2028');
    expect(hostile?.url).toBe(
      "https://events.example.org/calendars/culture/events/_57656972642f49443f3c783e/",
    );
    const cancelled = doc.events.find((e) => e.id === "e-cancelled");
    expect(cancelled?.status).toBe("cancelled");
    const community = new PublicJson(fixtureSnapshot, site).eventsDocument("community");
    const walk = community.events.find((e) => e.id === "e-dst");
    expect(walk?.location?.address?.formatted).toBe("Vondelpark 1, 1071 AA Amsterdam, NL");
    expect(walk?.location?.geo).toEqual({ lat: 52.358, lon: 4.868 });
    expect(walk?.image?.alt).toBe("Lanterns in the park");
    expect(walk?.start).toBe("2026-03-29T01:30:00+01:00");
    expect(walk?.end).toBe("2026-03-29T04:00:00+02:00");
  });

  it("should keep events sorted by start and limit them to the pastDays window", () => {
    const wide = new PublicJson(fixtureSnapshot, site).eventsDocument("community").events;
    expect(wide.map((e) => e.id)).toEqual(["e-past", "e-dst", "e-allday"]);
    const narrow = new PublicJson(fixtureSnapshot, { ...site, pastDays: 10 }).eventsDocument(
      "community",
    );
    expect(narrow.events.map((e) => e.id)).toEqual(["e-dst", "e-allday"]);
    expect(narrow.calendar.counts).toEqual({ events: 2, upcoming: 2 });
  });

  it("should never publish the portal source URL, warnings, organizer e-mail or descriptions", () => {
    const snapshot: PortalSnapshot = {
      ...fixtureSnapshot,
      source: "https://portal.example.org/api/v1?secret-marker",
      warnings: ["Skipped event x: warning-marker"],
    };
    const out = allOutputs(snapshot);
    expect(out).not.toContain("portal.example.org");
    expect(out).not.toContain("secret-marker");
    expect(out).not.toContain("warning-marker");
    expect(out).not.toContain("info@example.org");
    expect(out).not.toContain("Meet at the");
    expect(out.toLowerCase()).not.toContain("token");
  });

  it("should give byte-identical output for the same snapshot and settings", () => {
    expect(allOutputs(fixtureSnapshot)).toBe(allOutputs(structuredClone(fixtureSnapshot)));
  });

  it("should describe the build in the manifest with the shape the shrink guard reads", () => {
    const manifest = JSON.parse(new PublicJson(fixtureSnapshot, site).manifestJson());
    expect(Object.keys(manifest)).toEqual([
      "version",
      "generatedAt",
      "snapshotFetchedAt",
      "siteUrl",
      "calendars",
      "totals",
      "contentHash",
    ]);
    expect(manifest.version).toBe(1);
    expect(manifest.generatedAt).toBe("2026-03-20T12:00:00.000Z");
    expect(manifest.snapshotFetchedAt).toBe(NOW);
    expect(manifest.siteUrl).toBe("https://events.example.org");
    expect(manifest.calendars).toEqual([
      {
        id: "community",
        name: "Community",
        events: 3,
        url: "https://events.example.org/calendars/community/",
      },
      {
        id: "culture",
        name: "Culture",
        events: 5,
        url: "https://events.example.org/calendars/culture/",
      },
    ]);
    expect(manifest.totals).toEqual({ calendars: 2, events: 8 });
    expect(manifest.contentHash).toMatch(/^sha256-[0-9a-f]{64}$/);
  });

  it("should keep the content hash when only the build time changes", () => {
    const later = { ...site, now: site.now.plus({ minutes: 30 }) };
    const a = new PublicJson(fixtureSnapshot, site).manifest();
    const b = new PublicJson(fixtureSnapshot, later).manifest();
    expect(b.generatedAt).not.toBe(a.generatedAt);
    expect(b.contentHash).toBe(a.contentHash);
  });

  it("should hash the calendars' bodies as their files are written, not make them again, and hash the same asked otherwise", () => {
    const made = () => readMetrics().counters["json.eventsDocuments"] ?? 0;
    const fresh = new PublicJson(fixtureSnapshot, site).manifest().contentHash;
    // As public-json-files.ts writes them: each calendar's file in order, then the manifest.
    const json = new PublicJson(fixtureSnapshot, site);
    const before = made();
    for (const calendar of fixtureSnapshot.calendars) json.eventsJson(calendar.id);
    expect(json.manifest().contentHash).toBe(fresh);
    expect(made() - before).toBe(fixtureSnapshot.calendars.length);
    // Asked out of order, or one twice: the manifest makes the bodies itself, the same hash.
    const reversed = new PublicJson(fixtureSnapshot, site);
    for (const calendar of [...fixtureSnapshot.calendars].reverse())
      reversed.eventsJson(calendar.id);
    expect(reversed.manifest().contentHash).toBe(fresh);
    const twice = new PublicJson(fixtureSnapshot, site);
    const [first] = fixtureSnapshot.calendars;
    if (first) twice.eventsJson(first.id);
    if (first) twice.eventsJson(first.id);
    expect(twice.manifest().contentHash).toBe(fresh);
  });

  it("should hash a calendar's file kept as published from its published bytes, and make no body for it", () => {
    const made = () => readMetrics().counters["json.eventsDocuments"] ?? 0;
    const fresh = new PublicJson(fixtureSnapshot, site);
    const published = new Map(fixtureSnapshot.calendars.map((c) => [c.id, fresh.eventsJson(c.id)]));
    const expected = fresh.manifest().contentHash;
    // As public-json-files.ts writes them: the first calendar's file rendered, the others kept.
    const json = new PublicJson(fixtureSnapshot, site);
    const [first, ...kept] = fixtureSnapshot.calendars;
    const before = made();
    if (first) {
      json.eventsJson(first.id);
      json.eventsWritten(first.id, () => {
        throw new Error("a rendered file's copy is not read");
      });
    }
    for (const calendar of kept) {
      json.eventsWritten(calendar.id, () => Buffer.from(published.get(calendar.id) ?? ""));
    }
    expect(json.manifest().contentHash).toBe(expected);
    expect(made() - before).toBe(1);
    // Without a published copy (none, or not the file the list names), the body is made for it.
    const none = new PublicJson(fixtureSnapshot, site);
    for (const calendar of fixtureSnapshot.calendars)
      none.eventsWritten(calendar.id, () => undefined);
    expect(none.manifest().contentHash).toBe(expected);
  });

  it("should read a kept calendar file back for the manifest only where a manifest is written", () => {
    const read = (manifest: boolean) => {
      const paths: string[] = [];
      const data = { ...fixtureSnapshot, announcements: [], removedRecords: [] };
      const groups = publicJsonFileGroups(data, new PublicJson(fixtureSnapshot, site), {
        manifest,
        publishedCopy: (path) => {
          paths.push(path);
          return undefined;
        },
      });
      // As writeFileGroups calls them once each file is kept (none rendered here).
      for (const group of groups) for (const item of group.items) group.after?.(item);
      return paths;
    };
    expect(read(true)).toEqual(
      fixtureSnapshot.calendars.map((c) => `/api/calendars/${c.id}/events.json`),
    );
    // A language's folder: its calendar files are kept or written, and no copy is read for nothing.
    expect(read(false)).toEqual([]);
  });

  it("should name in a calendar file's inputs whatever changes its bytes, the clock where it moves a count", () => {
    const inputs = (snapshot: PortalSnapshot, s = site) =>
      new PublicJson(snapshot, s).eventsInputs("community");
    const bytes = (snapshot: PortalSnapshot, s = site) =>
      new PublicJson(snapshot, s).eventsJson("community");
    const renamed: PortalSnapshot = {
      ...fixtureSnapshot,
      events: fixtureSnapshot.events.map((e) =>
        e.calendarId === "community" ? { ...e, title: `${e.title}!` } : e,
      ),
    };
    const later = { ...site, now: site.now.plus({ minutes: 30 }) };
    // A year on, every event of the fixture has ended: the upcoming count moves.
    const nextYear = { ...site, now: site.now.plus({ days: 200 }) };
    const elsewhere = { ...site, url: "https://example.com/events" };
    for (const [snapshot, s] of [
      [renamed, site],
      [fixtureSnapshot, nextYear],
      [fixtureSnapshot, elsewhere],
    ] as const) {
      expect(bytes(snapshot, s)).not.toBe(bytes(fixtureSnapshot));
      expect(inputs(snapshot, s)).not.toBe(inputs(fixtureSnapshot));
    }
    // The build's time alone changes neither.
    expect(bytes(fixtureSnapshot, later)).toBe(bytes(fixtureSnapshot));
    expect(inputs(fixtureSnapshot, later)).toBe(inputs(fixtureSnapshot));
  });

  it("should change the content hash when a published event changes", () => {
    const renamed: PortalSnapshot = {
      ...fixtureSnapshot,
      events: fixtureSnapshot.events.map((e) =>
        e.id === "e-postponed" ? { ...e, title: "Poetry Night (new date)" } : e,
      ),
    };
    expect(new PublicJson(renamed, site).manifest().contentHash).not.toBe(
      new PublicJson(fixtureSnapshot, site).manifest().contentHash,
    );
  });

  it("should publish an empty portal as empty lists, not fail", () => {
    const empty: PortalSnapshot = { ...fixtureSnapshot, calendars: [], events: [] };
    expect(new PublicJson(empty, site).calendarsDocument()).toEqual({ version: 1, calendars: [] });
    expect(new PublicJson(empty, site).manifest().totals).toEqual({ calendars: 0, events: 0 });
  });

  it("should refuse an unknown calendar id", () => {
    expect(() => new PublicJson(fixtureSnapshot, site).eventsDocument("nope")).toThrow(RangeError);
  });
});
