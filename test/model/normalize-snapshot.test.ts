import { describe, expect, it } from "vitest";
import { EMPTY_FIELD_MAP } from "../../src/model/field-map.ts";
import { normalizeSnapshot } from "../../src/model/normalize-snapshot.ts";

const options = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };
const ev = (id: unknown, start: string, extra: Record<string, unknown> = {}) => ({
  listed: { id, title: `Event ${String(id)}`, start, ...extra },
  details: null,
});

describe("normalizeSnapshot", () => {
  const input = {
    source: "http://127.0.0.1:4010/v1",
    fetchedAt: "2026-03-20T12:00:00.000Z",
    warnings: ['calendar "culture", event "gone": skipped (listed, but its details answer 404)'],
    calendars: [
      {
        record: { id: "culture", name: "Culture", timeZone: "Europe/Amsterdam" },
        events: [
          ev("b", "2026-04-01T10:00:00+02:00"),
          ev("a", "2026-04-01T10:00:00+02:00"),
          ev("dup", "2026-04-02T10:00:00+02:00", { revision: 1, title: "Old" }),
          ev("dup", "2026-04-02T11:00:00+02:00", { revision: 2, title: "New" }),
          ev("bad", "2026-04-02T12:00:00+02:00", { end: "2026-04-01T00:00:00+02:00" }),
          { listed: { title: "No id", start: "2026-04-03" }, details: null },
        ],
      },
      {
        record: { id: "community", name: "community", timeZone: "Mars/Base" },
        events: [ev("a", "2026-04-01T10:00:00+02:00"), ev("early", "2026-03-01T09:00:00+01:00")],
      },
      { record: { name: "No id" }, events: [] },
    ],
  };

  it("should sort calendars by name and events by start, calendar id, event id", () => {
    const snapshot = normalizeSnapshot(input, options);
    expect(snapshot.calendars.map((c) => c.id)).toEqual(["community", "culture"]);
    expect(snapshot.events.map((e) => `${e.calendarId}/${e.id}`)).toEqual([
      "community/early",
      "community/a",
      "culture/a",
      "culture/b",
      "culture/dup",
    ]);
  });

  it("should keep the newest of duplicated events", () => {
    const snapshot = normalizeSnapshot(input, options);
    const dup = snapshot.events.find((e) => e.id === "dup");
    expect(dup).toMatchObject({ title: "New", sequence: 2, start: "2026-04-02T11:00:00+02:00" });
  });

  it("should skip bad records with warnings naming calendar, event and reason", () => {
    const seen: string[] = [];
    const snapshot = normalizeSnapshot(input, { ...options, onWarning: (w) => seen.push(w) });
    expect(snapshot.warnings).toEqual([
      'calendar "culture", event "gone": skipped (listed, but its details answer 404)',
      'calendar "culture", event "bad": skipped (end before start)',
      'calendar "culture", event #6 in the list: skipped (no id)',
      'calendar "community": unknown time zone "Mars/Base", using Europe/Amsterdam',
      "calendar #3 in the list: skipped (no id)",
    ]);
    expect(seen).toEqual(snapshot.warnings.slice(1));
  });

  it("should return a frozen snapshot", () => {
    const snapshot = normalizeSnapshot(input, options);
    expect(Object.isFrozen(snapshot.events)).toBe(true);
    expect(Object.isFrozen(snapshot.events[0])).toBe(true);
    expect(snapshot.source).toBe("http://127.0.0.1:4010/v1");
  });

  it("should keep a record it had to cut, with a warning naming its calendar, its id and what was cut", () => {
    const snapshot = normalizeSnapshot(
      {
        source: "http://127.0.0.1:4010/v1",
        fetchedAt: "2026-03-20T12:00:00.000Z",
        calendars: [
          {
            record: { id: "x\ud800", name: "Lost" },
            events: [ev("never", "2026-04-01T10:00:00+02:00")],
          },
          {
            record: { id: "culture", name: `Culture \ud800 ${"n".repeat(400)}` },
            events: [
              ev("many", "2026-04-01T10:00:00+02:00", {
                categories: Array.from({ length: 500 }, (_, i) => `Category ${i}`),
              }),
              ev("e\ud800", "2026-04-02T10:00:00+02:00"),
            ],
          },
        ],
      },
      options,
    );
    expect(snapshot.events.map((e) => e.id)).toEqual(["many"]);
    expect(snapshot.calendars[0]?.name).toBe(`Culture \ufffd ${"n".repeat(289)}…`);
    expect(snapshot.warnings).toEqual([
      "calendar #1 in the list: skipped (id is not well-formed Unicode (a lone UTF-16 surrogate))",
      'calendar "culture": name: lone UTF-16 surrogates replaced by U+FFFD',
      'calendar "culture": name: 410 characters, cut to 300',
      'calendar "culture", event "many": 500 categories, the first 30 are published',
      'calendar "culture", event "e\ufffd": skipped (id is not well-formed Unicode (a lone UTF-16 surrogate))',
    ]);
    for (const warning of snapshot.warnings) expect(warning.isWellFormed()).toBe(true);
  });
});
