import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { type SearchPart, searchParts } from "../../src/search/search-parts.ts";
import { type SearchRecord, searchRecords } from "../../src/search/search-records.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

const OPTIONS = {
  lang: "en-GB",
  timeZone: "Europe/Amsterdam",
  labels: { allDay: "All day", onlineEvent: "Online event", hybridEvent: "In person and online" },
};

/** The fixture's events, and one that starts on 1 May in Amsterdam, still 30 April in UTC. */
const events: CalendarEvent[] = [
  ...fixtureSnapshot.events,
  {
    ...(fixtureSnapshot.events[0] as CalendarEvent),
    id: "e-may-day-night",
    title: "May Day Night",
    start: "2026-05-01T00:30:00+02:00",
    end: "2026-05-01T02:00:00+02:00",
  },
];
const records = searchRecords(events, fixtureSnapshot.calendars, OPTIONS);

/** The UTC month of an instant, worked out apart from the code under test. */
const utcMonth = (record: SearchRecord) =>
  new Date(Date.parse(record.meta.start ?? "")).toISOString().slice(0, 7);
/** The site's order of search results: by the sort key, compared as Pagefind compares it. */
const bySortKey = (list: readonly SearchRecord[]) =>
  [...list].sort((a, b) =>
    Buffer.compare(Buffer.from(a.sort.start ?? ""), Buffer.from(b.sort.start ?? "")),
  );
const urls = (list: readonly SearchRecord[]) => list.map((record) => record.url);

describe("searchParts", () => {
  it("should put each event in the part of the UTC month it starts in, the parts in the site's order", () => {
    const parts = searchParts(records);
    const months = [...new Set(records.map(utcMonth))].sort();
    expect(months.length).toBeGreaterThan(2);
    expect(parts.map((part) => part.key)).toEqual(months);
    for (const part of parts) {
      expect(part.records.every((record) => utcMonth(record) === part.key)).toBe(true);
    }
    const mayDay = records.find((record) => record.url.endsWith("/e-may-day-night/"));
    expect(parts.find((part) => part.records.includes(mayDay as SearchRecord))?.key).toBe(
      "2026-04",
    );
    // Consecutive runs of the site's order: the parts' results one after the other are all of them in order.
    expect(urls(parts.flatMap((part) => bySortKey(part.records)))).toEqual(
      urls(bySortKey(records)),
    );
  });

  it("should keep the records' own order within a part, as Pagefind numbers its pages", () => {
    for (const part of searchParts(records)) {
      expect(urls(part.records)).toEqual(urls(records.filter((r) => part.records.includes(r))));
    }
  });

  it("should cut a month over the budget into runs of the site's order, none over it, and leave the other months as they were", () => {
    const april = records.filter((record) => utcMonth(record) === "2026-04");
    expect(april.length).toBeGreaterThan(4);
    const whole = searchParts(records);
    const cut = searchParts(records, { maxRecords: 2 });

    const runs = cut.filter((part) => part.key.startsWith("2026-04-"));
    expect(runs.map((part) => part.key)).toEqual(
      Array.from({ length: Math.ceil(april.length / 2) }, (_, i) => `2026-04-0${i + 1}`),
    );
    expect(Math.max(...runs.map((part) => part.records.length))).toBeLessThanOrEqual(2);
    expect(urls(runs.flatMap((part) => bySortKey(part.records)))).toEqual(urls(bySortKey(april)));
    for (const part of cut.filter((part) => !part.key.startsWith("2026-04"))) {
      expect(part).toEqual(whole.find((other) => other.key === part.key));
    }
    // Still in the site's order from the first part to the last.
    expect(urls(cut.flatMap((part) => bySortKey(part.records)))).toEqual(urls(bySortKey(records)));
  });

  it("should give each part the first and last day its events occupy", () => {
    for (const part of searchParts(records)) {
      const days = part.records.flatMap((record) => record.filters.day ?? []).sort();
      expect([part.firstDay, part.lastDay]).toEqual([days[0], days.at(-1)]);
    }
  });

  it("should change only the part of an edited event", () => {
    const edited = records.map((record, i) =>
      i === 3 ? { ...record, content: `${record.content}\nmoved indoors` } : record,
    );
    const changedKey = utcMonth(records[3] as SearchRecord);
    const before = new Map(
      searchParts(records).map((part): [string, SearchPart] => [part.key, part]),
    );
    const after = searchParts(edited);
    expect(after.map((part) => part.key)).toEqual([...before.keys()]);
    for (const part of after) {
      if (part.key === changedKey) expect(part).not.toEqual(before.get(part.key));
      else expect(part).toEqual(before.get(part.key));
    }
  });
});
