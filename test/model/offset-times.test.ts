import fc from "fast-check";
import { DateTime, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { parseInstant, resolveEventTimes } from "../../src/model/dates.ts";

/*
 * Times with an offset are read and written without Luxon (src/model/offset-times.ts);
 * Luxon is the oracle: the same text must give the same instant, the same ISO text
 * in the event's zone, and the same refusals, whatever the fields hold.
 */

const ZONES = [
  "Europe/Amsterdam",
  "Europe/London",
  "Europe/Dublin",
  "America/New_York",
  "America/St_Johns",
  "America/Sao_Paulo",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Pacific/Apia",
  "Africa/Abidjan",
  "UTC",
];

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));

/** Times near the form: every field sometimes out of range, seconds, fractions and offsets optional. */
const wireTime = fc
  .record({
    year: fc.integer({ min: 1880, max: 2200 }),
    month: two(13),
    day: two(32),
    hour: two(25),
    minute: two(61),
    second: fc.option(two(61), { nil: undefined }),
    fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
    offset: fc.oneof(
      fc.constant("Z"),
      fc.tuple(fc.constantFrom("+", "-"), two(25), two(61)).map(([s, h, m]) => `${s}${h}:${m}`),
    ),
  })
  .map(({ year, month, day, hour, minute, second, fraction, offset }) => {
    const seconds = second === undefined ? "" : `:${second}${fraction ? `.${fraction}` : ""}`;
    return `${year}-${month}-${day}T${hour}:${minute}${seconds}${offset}`;
  });

const iso = (value: DateTime) => value.toISO({ suppressMilliseconds: true });

describe("times with an offset", () => {
  it("should read an instant as Luxon does, and refuse what it refuses", () => {
    fc.assert(
      fc.property(wireTime, (text) => {
        const luxon = DateTime.fromISO(text, { zone: "UTC" });
        expect(parseInstant(text)).toBe(luxon.isValid ? iso(luxon.toUTC()) : null);
      }),
      { numRuns: 3000, seed: 4201 },
    );
  });

  it("should write a timed event's start and end in its zone as Luxon does", () => {
    fc.assert(
      fc.property(wireTime, wireTime, fc.constantFrom(...ZONES), (start, end, zone) => {
        const s = DateTime.fromISO(start, { zone: IANAZone.create(zone) });
        const e = DateTime.fromISO(end, { zone: IANAZone.create(zone) });
        const expected =
          !s.isValid || !e.isValid
            ? "refused"
            : e < s
              ? { error: "end before start" }
              : { start: iso(s), end: iso(e), allDay: false };
        const actual = resolveEventTimes(start, end, undefined, zone);
        if (expected === "refused") expect(actual).toHaveProperty("error");
        else expect(actual).toEqual(expected);
      }),
      { numRuns: 3000, seed: 4202 },
    );
  });

  it("should cross a zone's change of offset as Luxon does, minute by minute", () => {
    // Amsterdam's clocks went back at 01:00 UTC on 25 October 2026; Lord Howe's by half an hour.
    for (const [zone, around] of [
      ["Europe/Amsterdam", Date.UTC(2026, 9, 25, 1)],
      ["Australia/Lord_Howe", Date.UTC(2026, 3, 4, 15)],
    ] as const) {
      for (let minute = -90; minute <= 90; minute++) {
        const text = new Date(around + minute * 60_000).toISOString();
        const luxon = DateTime.fromISO(text, { zone: IANAZone.create(zone) });
        expect(resolveEventTimes(text, undefined, false, zone)).toEqual({
          start: iso(luxon),
          end: iso(luxon),
          allDay: false,
        });
      }
    }
  });
});
