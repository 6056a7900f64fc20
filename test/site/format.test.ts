import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { formatInZone } from "../../src/model/offset-times.ts";
import { timeZone } from "../../src/model/time-zone.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import {
  formatListTime,
  formatTimeRange,
  formatWhen,
  weekdayNames,
} from "../../src/site/format.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

const event = (id: string) => {
  const found = fixtureSnapshot.events.find((e) => e.id === id);
  if (!found) throw new Error(id);
  return found;
};

describe("formatWhen", () => {
  it("should name both offsets for an event across the DST change", () => {
    const text = formatWhen(event("e-dst"), "en-GB");
    expect(text).toMatch(/29 March 2026.*01:30 CET\s–\s.*29 March 2026.*04:00 CEST$/);
  });

  it("should show an all-day event as its date only", () => {
    expect(formatWhen(event("e-allday"), "en-GB")).toMatch(/^Monday,? 27 April 2026$/);
  });

  it("should show a multi-day all-day event with its inclusive last day", () => {
    expect(formatWhen(event("e-multiday"), "en-GB")).toMatch(
      /^Friday,?\s15(\sMay)?\s–\sSunday,?\s17\sMay\s2026$/,
    );
  });

  it("should format in the event's zone and language, whatever the host zone", () => {
    expect(formatWhen(event("e-online"), "en-GB")).toMatch(/12:00.+13:00 GMT-4$/);
    expect(formatWhen(event("e-cancelled"), "nl")).toMatch(
      /^zaterdag 4 april 2026,? 20:00\s?–\s?22:00 CEST$/,
    );
  });

  it("should write a range within one day exactly as Intl's formatRange does", () => {
    // The text is put together from the times' pattern and the day's names (format.ts).
    const times = ["00:00", "09:30", "11:45", "12:00", "12:30", "13:00", "23:59"];
    for (const lang of ["en", "en-GB", "en-US", "en-IN", "nl", "nl-BE"]) {
      for (const timeZone of ["Europe/Amsterdam", "America/New_York", "Asia/Kolkata"]) {
        const format = new Intl.DateTimeFormat(lang, {
          timeZone,
          weekday: "long",
          day: "numeric",
          month: "long",
          year: "numeric",
          hour: "2-digit",
          minute: "2-digit",
        });
        for (let day = 0; day < 1100; day += 73) {
          const date = DateTime.fromISO("2025-01-01", { zone: timeZone }).plus({ days: day });
          for (const [i, from] of times.entries()) {
            for (const to of times.slice(i + 1)) {
              const at = (time: string) => {
                const [hour, minute] = time.split(":").map(Number);
                return date.set({ hour, minute });
              };
              const start = at(from);
              const end = at(to);
              const ranged = {
                ...event("e-cancelled"),
                timeZone,
                start: start.toISO() ?? "",
                end: end.toISO() ?? "",
              };
              const zone = new Intl.DateTimeFormat(lang, { timeZone, timeZoneName: "short" })
                .formatToParts(start.toJSDate())
                .find((part) => part.type === "timeZoneName");
              const expected = format.formatRange(start.toJSDate(), end.toJSDate());
              expect(formatWhen(ranged, lang)).toBe(`${expected} ${zone?.value}`);
            }
          }
        }
      }
    }
  });

  it("should show only the start of an event without an end", () => {
    const text = formatWhen(event("Weird/ID?<x>"), "en-GB");
    expect(text).toMatch(/20 April 2026.* 18:00 CEST$/);
    expect(text).not.toContain("–");
  });
});

describe("formatTimeRange", () => {
  it("should give times of day for timed events and nothing for all-day ones", () => {
    expect(formatTimeRange(event("e-cancelled"), "en-GB")).toMatch(/^20:00\s?–\s?22:00$/);
    expect(formatTimeRange(event("e-allday"), "en-GB")).toBe("");
  });

  it("should say what Intl says of the event's instants in its own zone, for any times and zones", () => {
    // Rows read the wall clock from the strings the model writes; Intl, asked
    // of the instants themselves, is the independent answer. Zones with
    // half-hour and 45-minute offsets and shifts, times around their changes.
    const zones = [
      "Europe/Amsterdam",
      "America/New_York",
      "America/St_Johns",
      "Asia/Kolkata",
      "Asia/Tehran",
      "Australia/Lord_Howe",
      "Pacific/Chatham",
      "UTC",
    ];
    const languages = ["en-GB", "en-US", "de", "ar", "ja", "he"];
    const base = Date.UTC(2026, 0, 1);
    const sample = fc.record({
      zone: fc.constantFrom(...zones),
      lang: fc.constantFrom(...languages),
      // Whole minutes over two years, so every zone's changes of offset are in range.
      startMinute: fc.integer({ min: 0, max: 2 * 366 * 24 * 60 }),
      minutes: fc.integer({ min: -120, max: 3 * 24 * 60 }),
    });
    const made = new Set<string>();
    fc.assert(
      fc.property(sample, ({ zone, lang, startMinute, minutes }) => {
        const startMs = base + startMinute * 60_000;
        const endMs = startMs + minutes * 60_000;
        const start = formatInZone(startMs, timeZone(zone)) as string;
        const end = formatInZone(endMs, timeZone(zone)) as string;
        const timed = { ...event("e-cancelled"), start, end, timeZone: zone, allDay: false };
        const time = { hour: "2-digit", minute: "2-digit", timeZone: zone } as const;
        let expected: string;
        if (endMs <= startMs) {
          expected = new Intl.DateTimeFormat(lang, time).format(startMs);
        } else if (start.slice(0, 10) === end.slice(0, 10)) {
          expected = new Intl.DateTimeFormat(lang, time).formatRange(startMs, endMs);
        } else {
          const dayAndTime = { ...time, day: "numeric", month: "short" } as const;
          expected = new Intl.DateTimeFormat(lang, dayAndTime).formatRange(startMs, endMs);
        }
        made.add(expected);
        expect(formatTimeRange(timed as CalendarEvent, lang)).toBe(expected);
      }),
      { numRuns: 2000, seed: 20261130 },
    );
    expect(made.size).toBeGreaterThan(1000);
  });

  it("should show a time written with another offset than its zone's as its zone's wall clock", () => {
    // The model writes times in the event's own zone; one written in UTC is read for its
    // instant, as Luxon reads it, not for the wall clock its text shows. Texts are kept by
    // their wall clocks: an event at 08:00 there is formatted first, to hold that one.
    const timed = { ...event("e-cancelled"), timeZone: "Europe/Amsterdam", allDay: false };
    const eight = {
      ...timed,
      start: "2026-07-02T08:00:00+02:00",
      end: "2026-07-02T09:30:00+02:00",
    };
    const utc = { ...timed, start: "2026-07-01T08:00:00Z", end: "2026-07-01T09:30:00+00:00" };
    expect(formatTimeRange(eight, "en-IE")).toMatch(/^08:00\s?–\s?09:30$/);
    expect(formatTimeRange(utc, "en-IE")).toMatch(/^10:00\s?–\s?11:30$/);
    expect(formatListTime(utc, "en-GB", "Europe/London")).toMatch(/^10:00\s?–\s?11:30 CEST$/);
    expect(formatListTime(utc, "en-IE", "Europe/Amsterdam")).toMatch(/^10:00\s?–\s?11:30$/);
  });

  it("should read times written in another form as Luxon does", () => {
    // A time without an offset is a wall clock of the event's zone.
    const local = {
      ...event("e-cancelled"),
      start: "2026-07-01T09:15:00",
      end: "2026-07-01T10:45:00",
    };
    expect(formatTimeRange(local, "en-GB")).toMatch(/^09:15\s?–\s?10:45$/);
  });
});

describe("weekdayNames", () => {
  it("should start weeks on Monday where the locale does", () => {
    expect(weekdayNames("en-GB", "long")[0]).toBe("Monday");
    expect(weekdayNames("nl", "long")[6]).toBe("zondag");
    expect(weekdayNames("de", "long")).toEqual([
      "Montag",
      "Dienstag",
      "Mittwoch",
      "Donnerstag",
      "Freitag",
      "Samstag",
      "Sonntag",
    ]);
  });

  it("should start weeks on the locale's first day: Sunday in en-US, Saturday in ar-EG", () => {
    expect(weekdayNames("en-US", "long")[0]).toBe("Sunday");
    expect(weekdayNames("en-US", "long")[6]).toBe("Saturday");
    expect(weekdayNames("ja", "long")[0]).toBe("日曜日");
    expect(weekdayNames("ar-EG", "long")[0]).toBe("السبت");
    expect(weekdayNames("ar-EG", "long")[6]).toBe("الجمعة");
  });
});
