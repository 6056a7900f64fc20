import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DateTime } from "luxon";
import { afterAll, describe, expect, it } from "vitest";
import {
  createDemoDataset,
  createSyntheticDataset,
  DatasetError,
  loadDatasetFile,
  type PortalDataset,
  startPortal,
  validateDataset,
} from "../../src/portal/index.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { call } from "../helpers/http-requests.ts";

const DEMO_ORG = "amstel-community";
const demoEvents = (dataset: PortalDataset) => {
  const visible = new Set(
    dataset.calendars.filter((c) => c.organizations.includes(DEMO_ORG)).map((c) => c.id),
  );
  return dataset.events.filter((e) => visible.has(e.calendarId));
};
const startOf = (e: { start: string; allDay: boolean; timeZone: string }) =>
  DateTime.fromISO(e.start, { zone: e.timeZone, setZone: !e.allDay });
const endOf = (e: { end: string; allDay: boolean; timeZone: string }) =>
  DateTime.fromISO(e.end, { zone: e.timeZone, setZone: !e.allDay });

describe("createDemoDataset", () => {
  it("should be identical for the same now", () => {
    expect(JSON.stringify(createDemoDataset(NOW))).toBe(
      JSON.stringify(createDemoDataset(new Date(NOW))),
    );
  });

  it("should move with now: a week later, the weekly events are a week later", () => {
    const later = DateTime.fromISO(NOW).plus({ weeks: 1 }).toISO() ?? "";
    const first = (d: PortalDataset) =>
      d.events.find((e) => e.id.startsWith("repair-cafe-"))?.start;
    const a = first(createDemoDataset(NOW)) ?? "";
    const b = first(createDemoDataset(later)) ?? "";
    expect(DateTime.fromISO(b).diff(DateTime.fromISO(a), "days").days).toBeCloseTo(7, 1);
  });

  it.each([NOW, "2026-07-01T09:00:00Z", "2026-12-24T18:00:00Z"])(
    "should give the demo organization 150+ events from ~2 months before to ~6 months after %s",
    (now) => {
      const events = demoEvents(createDemoDataset(now));
      expect(events.length).toBeGreaterThanOrEqual(150);
      const nowDt = DateTime.fromISO(now);
      const starts = events.map((e) => startOf(e).toMillis()).sort((a, b) => a - b);
      const earliest = DateTime.fromMillis(starts[0] ?? 0);
      const latest = DateTime.fromMillis(starts[starts.length - 1] ?? 0);
      expect(nowDt.diff(earliest, "days").days).toBeGreaterThan(50);
      // Multi-day events already running at the window start may begin a few days earlier.
      expect(nowDt.diff(earliest, "days").days).toBeLessThanOrEqual(63);
      expect(latest.diff(nowDt, "days").days).toBeGreaterThan(170);
      expect(latest.diff(nowDt, "days").days).toBeLessThanOrEqual(181);
      expect(events.filter((e) => endOf(e) > nowDt).length).toBeGreaterThan(100);
    },
  );

  it.each([NOW, "2026-07-01T09:00:00Z"])(
    "should contain an event across a DST change (now %s)",
    (now) => {
      const crossing = createDemoDataset(now).events.filter(
        (e) =>
          !e.allDay && e.timeZone === "Europe/Amsterdam" && startOf(e).offset !== endOf(e).offset,
      );
      expect(crossing.length).toBeGreaterThanOrEqual(2);
      const walk = crossing.find((e) => e.id.startsWith("stargazing-walk-"));
      expect(walk).toBeDefined();
      // 23:00 to 05:00 local is 5 or 7 hours of real time, never 6.
      const hours = endOf(walk as never).diff(startOf(walk as never), "hours").hours;
      expect([5, 7]).toContain(hours);
    },
  );

  it("should cover the kinds of events consumers get wrong", () => {
    const events = demoEvents(createDemoDataset(NOW));
    const has = (predicate: (e: (typeof events)[number]) => boolean) => events.some(predicate);
    expect(has((e) => e.status === "cancelled")).toBe(true);
    expect(has((e) => e.status === "postponed")).toBe(true);
    expect(
      has((e) => e.attendanceMode === "online" && e.onlineUrl !== null && e.location === null),
    ).toBe(true);
    expect(
      has((e) => e.attendanceMode === "mixed" && e.onlineUrl !== null && e.location !== null),
    ).toBe(true);
    expect(has((e) => e.allDay && endOf(e).diff(startOf(e), "days").days === 1)).toBe(true);
    expect(has((e) => e.allDay && endOf(e).diff(startOf(e), "days").days > 1)).toBe(true);
    expect(has((e) => !e.allDay && startOf(e).toISODate() !== endOf(e).toISODate())).toBe(true);
    expect(has((e) => e.timeZone !== "Europe/Amsterdam")).toBe(true);
    expect(
      has((e) => e.description.includes("<script>") && e.description.includes("onerror=")),
    ).toBe(true);
    expect(has((e) => e.description.includes('href="javascript:'))).toBe(true);
    expect(has((e) => /<(ul|ol)>/.test(e.description) && e.description.includes("<a href="))).toBe(
      true,
    );
    expect(has((e) => e.image?.url.startsWith("/media/") === true && e.image.alt !== "")).toBe(
      true,
    );
    expect(has((e) => e.location?.geo !== null && e.location?.address?.postalCode !== null)).toBe(
      true,
    );
    expect(has((e) => e.registrationUrl !== null)).toBe(true);
    expect(has((e) => e.organizer === null && e.location === null && e.image === null)).toBe(true);
    expect(events.filter((e) => e.id.startsWith("run-club-")).length).toBeGreaterThan(30);
    for (const e of events) {
      expect(Date.parse(e.createdAt)).toBeLessThanOrEqual(Date.parse(e.updatedAt));
      expect(Date.parse(e.updatedAt)).toBeLessThanOrEqual(NOW_MS);
    }
  });

  it("should include a second organization with its own calendar and one shared calendar", () => {
    const dataset = createDemoDataset(NOW);
    expect(dataset.organizations.map((o) => o.id)).toEqual([DEMO_ORG, "riverside-library"]);
    const of = (org: string) =>
      dataset.calendars.filter((c) => c.organizations.includes(org)).map((c) => c.id);
    expect(of("riverside-library")).toEqual(["city", "library"]);
    expect(of(DEMO_ORG)).not.toContain("library");
  });

  it("should pass its own validation", () => {
    const dataset = createDemoDataset(NOW);
    expect(validateDataset(JSON.parse(JSON.stringify(dataset)))).toEqual(
      JSON.parse(JSON.stringify(dataset)),
    );
  });
});

describe("createSyntheticDataset", () => {
  const options = { calendars: 3, eventsPerCalendar: 400, seed: 9, now: NOW };

  it("should be identical for the same seed and now, and differ for another seed", () => {
    const a = JSON.stringify(createSyntheticDataset(options));
    expect(JSON.stringify(createSyntheticDataset(options))).toBe(a);
    expect(JSON.stringify(createSyntheticDataset({ ...options, seed: 10 }))).not.toBe(a);
  });

  it("should shift its dates with now", () => {
    const a = createSyntheticDataset(options).events[0];
    const later = createSyntheticDataset({ ...options, now: "2026-03-27T12:00:00Z" }).events[0];
    expect(later?.id).toBe(a?.id);
    expect(
      DateTime.fromISO(later?.start ?? "").diff(DateTime.fromISO(a?.start ?? ""), "days").days,
    ).toBeCloseTo(7, 1);
  });

  it("should make calendars x events valid events with unique ids", () => {
    const dataset = createSyntheticDataset(options);
    expect(dataset.calendars).toHaveLength(3);
    expect(dataset.events).toHaveLength(1200);
    expect(new Set(dataset.events.map((e) => e.id)).size).toBe(1200);
    expect(() => validateDataset(JSON.parse(JSON.stringify(dataset)))).not.toThrow();
  });

  it("should serve 100,000 events", async () => {
    const portal = await startPortal({
      port: 0,
      now: NOW,
      synthetic: { calendars: 4, eventsPerCalendar: 25_000 },
    });
    try {
      expect(portal.eventCount).toBe(100_000);
      const reply = await call(`${portal.url}/event-calendar/cal-004/events?limit=100`, {
        token: portal.token,
      });
      expect(reply.headers["x-total-count"]).toBe("25000");
      expect(reply.json<unknown[]>()).toHaveLength(100);
    } finally {
      await portal.close();
    }
  });
});

describe("dataset files", () => {
  const dir = mkdtempSync(join(tmpdir(), "portal-dataset-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    return path;
  };

  it("should load and serve the example file of docs/dataset.md", async () => {
    const doc = readFileSync(new URL("../../docs/dataset.md", import.meta.url), "utf8");
    const example = /## Example[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? "";
    const portal = await startPortal({ port: 0, dataFile: write("example.json", example) });
    try {
      expect(portal.organizationId).toBe("harbour-club");
      const events = await call(`${portal.url}/event-calendar/club/events`, {
        token: portal.token,
      });
      expect(events.json<Array<{ id: string }>>().map((e) => e.id)).toEqual([
        "night-row-2026",
        "technique-webinar",
        "spring-regatta-2026",
      ]);
      const other = portal.issueToken("city-desk");
      const details = await call(`${portal.url}/event-calendar/club/event/night-row-2026/details`, {
        token: other,
      });
      expect(details.json()).toMatchObject({
        image: { url: `${portal.origin}/media/night-row.svg` },
        revision: 2,
      });
      expect((await call(`${portal.origin}/media/night-row.svg`)).status).toBe(200);
    } finally {
      await portal.close();
    }
  });

  it("should serve a saved demo dataset loaded with dataFile", async () => {
    const dataset = createDemoDataset(NOW);
    const portal = await startPortal({ port: 0, dataFile: write("demo.json", dataset) });
    try {
      expect(portal.eventCount).toBe(dataset.events.length);
      const reply = await call(`${portal.url}/event-calendars`, { token: portal.token });
      expect(reply.json<unknown[]>()).toHaveLength(4);
    } finally {
      await portal.close();
    }
  });

  it("should name every bad record in one error", async () => {
    const base = createDemoDataset(NOW);
    const events = base.events.slice(0, 4).map((e) => ({ ...e }));
    Object.assign(events[1] as object, { start: "next tuesday" });
    Object.assign(events[2] as object, { calendarId: "ghost" });
    Object.assign(events[3] as object, { id: "../etc" });
    const path = write("bad.json", { ...base, events });
    const error = await loadDatasetFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetError);
    const message = (error as Error).message;
    expect(message).toContain(path);
    expect(message).toContain(`events[1] "${events[1]?.id}": start must be ISO 8601`);
    expect(message).toMatch(/events\[2\] "[^"]+": calendarId names no calendar/);
    expect(message).toContain('events[3] "../etc": id must be');
    expect(message).not.toContain("events[0]");
  });

  it("should fill optional event fields with defaults", () => {
    const dataset = validateDataset({
      version: 1,
      organizations: [{ id: "o", name: "Org" }],
      calendars: [
        {
          id: "c",
          name: "Cal",
          timeZone: "Europe/Amsterdam",
          updatedAt: NOW,
          organizations: ["o"],
        },
      ],
      events: [
        {
          id: "e",
          calendarId: "c",
          title: "T",
          start: "2026-04-01",
          end: "2026-04-02",
          allDay: true,
          createdAt: NOW,
        },
      ],
    });
    expect(dataset.events[0]).toMatchObject({
      timeZone: "Europe/Amsterdam",
      status: "scheduled",
      revision: 1,
      updatedAt: NOW,
      summary: "",
      location: null,
      categories: [],
      attendanceMode: "offline",
    });
  });

  it("should serve an event's texts in other languages beside its own, in the details only", async () => {
    const base = createDemoDataset(NOW);
    const [first, ...rest] = base.events;
    const translated = {
      ...(first as (typeof base.events)[number]),
      translations: {
        fr: { title: "Café de la réparation", description: "<p>En français.</p>" },
        "pt-BR": { summary: "Traga o que está quebrado." },
      },
    };
    const portal = await startPortal({
      port: 0,
      dataFile: write("translated.json", { ...base, events: [translated, ...rest] }),
    });
    try {
      const at = `${portal.url}/event-calendar/${translated.calendarId}`;
      const details = await call(`${at}/event/${translated.id}/details`, { token: portal.token });
      expect(details.json()).toMatchObject({
        title: translated.title,
        title_fr: "Café de la réparation",
        description_fr: "<p>En français.</p>",
        "summary_pt-BR": "Traga o que está quebrado.",
      });
      expect(details.json()).not.toHaveProperty("translations");
      const listed = await call(`${at}/events`, { token: portal.token });
      const record = listed.json<Record<string, unknown>[]>().find((e) => e.id === translated.id);
      expect(Object.keys(record ?? {}).filter((key) => key.includes("_"))).toEqual([]);
    } finally {
      await portal.close();
    }
    const bad = {
      ...translated,
      translations: { "not a tag": { title: "x" }, fr: { place: "y" } },
    };
    const error = await loadDatasetFile(write("bad-translations.json", { ...base, events: [bad] }))
      .then(() => null)
      .catch((e: unknown) => e);
    expect(String(error)).toContain('translations "not a tag": expected a language tag');
    expect(String(error)).toContain('translations "fr": expected a language tag');
  });

  it("should report unreadable and non-JSON files with their path", async () => {
    await expect(loadDatasetFile(join(dir, "missing.json"))).rejects.toThrow(/missing\.json/);
    await expect(loadDatasetFile(write("broken.json", "{ nope"))).rejects.toThrow(
      /broken\.json is not valid JSON/,
    );
  });
});
