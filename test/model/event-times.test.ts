import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { formatTime } from "../../src/model/dates.ts";
import {
  endedBefore,
  endMillis,
  eventTimes,
  localDays,
  localStartDate,
  startMillis,
} from "../../src/model/event-times.ts";
import { timeZone } from "../../src/model/time-zone.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

const ZONES = [
  "Europe/Amsterdam",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "UTC",
];

/** An event as the normalizer writes it: times with offsets, in the event's own zone. */
function event(start: DateTime, end: DateTime, allDay = false): CalendarEvent {
  const base = fixtureSnapshot.events[0];
  if (!base) throw new Error("the fixture has events");
  return {
    ...base,
    start: formatTime(start),
    end: formatTime(end),
    allDay,
    timeZone: start.zoneName ?? "UTC",
  };
}

/** The days an event occupies, computed the long way with Luxon in its zone. */
function luxonDays(e: CalendarEvent): string[] {
  const times = eventTimes(e);
  if (!times) throw new Error("invalid");
  const last = times.end > times.start ? times.end.minus({ milliseconds: 1 }) : times.start;
  const days: string[] = [];
  for (
    let day = times.start.startOf("day");
    day <= last && days.length < 366;
    day = day.plus({ days: 1 })
  ) {
    days.push(day.toISODate() ?? "");
  }
  return days;
}

/** A deterministic spread of events: lengths from none to several days, starts at any minute, across DST changes. */
function* spread(): Generator<CalendarEvent> {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  for (let i = 0; i < 600; i++) {
    const zone = ZONES[i % ZONES.length] ?? "UTC";
    const start = DateTime.fromObject(
      { year: 2026, month: 1 + next(12), day: 1 + next(28), hour: next(24), minute: next(4) * 15 },
      { zone },
    );
    const allDay = next(5) === 0;
    if (allDay) {
      const first = start.startOf("day");
      yield event(first, first.plus({ days: 1 + next(4) }), true);
    } else {
      yield event(start, start.plus({ minutes: [0, 45, 90, 600, 1440, 3000][next(6)] ?? 0 }));
    }
  }
}

describe("event-times", () => {
  it("should read instants and local days from the ISO strings exactly as Luxon computes them", () => {
    let multiDay = 0;
    for (const e of spread()) {
      const times = eventTimes(e);
      expect(startMillis(e)).toBe(times?.start.toMillis());
      expect(endMillis(e)).toBe(times?.end.toMillis());
      expect(localStartDate(e)).toBe(times?.start.toISODate());
      expect(localDays(e), `${e.start} - ${e.end}`).toEqual(luxonDays(e));
      if (localDays(e).length > 1) multiDay++;
    }
    // The spread really has events across several days.
    expect(multiDay).toBeGreaterThan(50);
  });

  it("should not count the day an exclusive end at local midnight begins", () => {
    const start = DateTime.fromISO("2026-03-28T00:00:00", { zone: "Europe/Amsterdam" });
    expect(localDays(event(start, start.plus({ days: 2 }), true))).toEqual([
      "2026-03-28",
      "2026-03-29",
    ]);
    // Across the clock change, 23:00 to 01:00 the next night spans two days.
    const night = DateTime.fromISO("2026-03-28T23:00:00", { zone: "Europe/Amsterdam" });
    expect(localDays(event(night, night.plus({ hours: 2 })))).toEqual(["2026-03-28", "2026-03-29"]);
  });

  it("should say an event has ended only after its end, and a point-in-time event when it starts", () => {
    const start = DateTime.fromISO("2026-05-01T10:00:00", { zone: "America/New_York" });
    const e = event(start, start.plus({ hours: 1 }));
    expect(endedBefore(e, start.plus({ hours: 1 }).toMillis())).toBe(false);
    expect(endedBefore(e, start.plus({ hours: 1, milliseconds: 1 }).toMillis())).toBe(true);
    const point = event(start, start);
    expect(endedBefore(point, start.toMillis() + 1)).toBe(true);
  });

  it("should give the times Luxon parses from the strings, in the event's zone, across clock changes", () => {
    let checked = 0;
    for (const e of spread()) {
      const times = eventTimes(e);
      const zone = timeZone(e.timeZone);
      const start = DateTime.fromISO(e.start, { zone });
      const end = DateTime.max(start, DateTime.fromISO(e.end, { zone }));
      // toISO shows the local time and the offset: both must be the zone's at that instant.
      expect(times?.start.toISO(), e.start).toBe(start.toISO());
      expect(times?.end.toISO(), e.end).toBe(end.toISO());
      expect(times?.start.zoneName).toBe(e.timeZone);
      const lastDay = e.allDay ? end.minus({ days: 1 }).startOf("day") : end.startOf("day");
      expect(times?.lastDay.toISO()).toBe(DateTime.max(start.startOf("day"), lastDay).toISO());
      checked++;
    }
    expect(checked).toBe(600);
  });

  it("should refuse a day the month does not have, an unknown zone, and read a local time without offset in the event's zone", () => {
    const start = DateTime.fromISO("2026-02-10T10:00:00", { zone: "Europe/Amsterdam" });
    const base = event(start, start.plus({ hours: 1 }));
    expect(eventTimes({ ...base, start: "2026-02-30T10:00:00+01:00" })).toBeNull();
    expect(eventTimes({ ...base, end: "2026-13-01T10:00:00+01:00" })).toBeNull();
    expect(eventTimes({ ...base, timeZone: "Mars/Olympus_Mons" })).toBeNull();
    const local = eventTimes({ ...base, start: "2026-07-01T10:00:00", end: "2026-07-01T12:00:00" });
    expect(local?.start.toISO()).toBe("2026-07-01T10:00:00.000+02:00");
    expect(local?.end.toISO()).toBe("2026-07-01T12:00:00.000+02:00");
  });
});
