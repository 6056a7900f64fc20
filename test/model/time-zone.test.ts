import { DateTime, IANAZone } from "luxon";
import { describe, expect, it, vi } from "vitest";
import { timeZone } from "../../src/model/time-zone.ts";

// Zones with whole-hour, half-hour (Lord Howe's 30-minute DST) and 45-minute
// offsets, on both hemispheres, plus one without DST.
const ZONES = [
  "Europe/Amsterdam",
  "America/New_York",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kathmandu",
  "America/Sao_Paulo",
];
const MINUTE = 60_000;

describe("time-zone", () => {
  it("should give Luxon's own offset and zone names for the whole of 2026, every minute around transitions", () => {
    for (const name of ZONES) {
      const remembered = timeZone(name);
      const luxon = IANAZone.create(name);
      const from = Date.UTC(2026, 0, 1);
      const to = Date.UTC(2027, 0, 1);
      let transitions = 0;
      // A sweep at an odd step lands on every minute of the hour over the year...
      for (let ts = from; ts < to; ts += 61 * MINUTE) {
        expect(remembered.offset(ts), `${name} at ${new Date(ts).toISOString()}`).toBe(
          luxon.offset(ts),
        );
      }
      // ...and every minute around each transition, where a remembered span could go wrong.
      const HOUR = 60 * MINUTE;
      for (let ts = from; ts < to; ts += HOUR) {
        if (luxon.offset(ts) === luxon.offset(ts + HOUR)) continue;
        transitions++;
        for (let t = ts - HOUR; t <= ts + 2 * HOUR; t += MINUTE) {
          expect(remembered.offset(t)).toBe(luxon.offset(t));
          expect(remembered.offsetName(t, { format: "short", locale: "en-GB" })).toBe(
            luxon.offsetName(t, { format: "short", locale: "en-GB" }),
          );
        }
      }
      if (name !== "Asia/Kathmandu" && name !== "America/Sao_Paulo") expect(transitions).toBe(2);
    }
  });

  it("should give Luxon's own offsets through the closest transitions on record", () => {
    // The offsets are remembered a day at a time (src/model/time-zone.ts):
    // after Africa/Freetown's of 1939 (96 hours apart; Node's data, without
    // the time zone database's backzone, gives it Africa/Abidjan's offsets),
    // these are the transitions nearest each other since 1900, 167 hours
    // apart, where a day could hold more than one if any were closer.
    const closest: [string, number, number][] = [
      ["America/Noronha", Date.UTC(2000, 9, 1), Date.UTC(2000, 10, 1)],
      ["Asia/Gaza", Date.UTC(2040, 8, 1), Date.UTC(2040, 11, 1)],
    ];
    for (const [name, from, to] of closest) {
      const remembered = timeZone(name);
      const luxon = IANAZone.create(name);
      const offsets = new Set<number>();
      for (let ts = from; ts < to; ts += 7 * MINUTE) {
        expect(remembered.offset(ts), `${name} at ${new Date(ts).toISOString()}`).toBe(
          luxon.offset(ts),
        );
        offsets.add(luxon.offset(ts));
      }
      expect(offsets.size, `${name}: a transition in the month swept`).toBeGreaterThan(1);
    }
  });

  it("should ask Intl for a zone's offset about twice a day of events, not for each event", () => {
    const asked = vi.spyOn(IANAZone.prototype, "offset");
    try {
      // 2,000 events, one every 4 h 23 min through 2028: each in a quarter hour of its own.
      const zone = timeZone("America/New_York");
      const from = Date.UTC(2028, 0, 1);
      for (let i = 0; i < 2000; i++) {
        const at = from + i * 263 * MINUTE;
        DateTime.fromMillis(at, { zone }).plus({ minutes: 90 }).startOf("day");
      }
      const days = Math.ceil((1999 * 263 * MINUTE) / (24 * 60 * MINUTE)) + 1;
      // Both ends of each day, and of each quarter hour of the two days with a transition.
      expect(asked.mock.calls.length).toBeLessThanOrEqual(2 * days + 2 * 2 * 96);
    } finally {
      asked.mockRestore();
    }
  });

  it("should make DateTimes equal to ones in Luxon's zone, in the same zone by name", () => {
    const iso = "2026-03-29T01:30:00Z";
    const ours = DateTime.fromISO(iso, { zone: timeZone("Europe/Amsterdam") });
    const luxons = DateTime.fromISO(iso, { zone: "Europe/Amsterdam" });
    expect(ours.toISO()).toBe(luxons.toISO());
    expect(ours.zoneName).toBe("Europe/Amsterdam");
    expect(ours.equals(luxons)).toBe(true);
    expect(ours.plus({ hours: 1 }).toISO()).toBe(luxons.plus({ hours: 1 }).toISO());
    expect(ours.startOf("day").toISO()).toBe(luxons.startOf("day").toISO());
    expect(ours.toFormat("ZZZZ ZZ")).toBe(luxons.toFormat("ZZZZ ZZ"));
  });

  it("should leave unknown zone names invalid, as Luxon does", () => {
    expect(timeZone("Mars/Olympus_Mons").isValid).toBe(false);
    expect(DateTime.fromISO("2026-01-01T00:00:00Z", { zone: timeZone("Nowhere") }).isValid).toBe(
      false,
    );
  });
});
