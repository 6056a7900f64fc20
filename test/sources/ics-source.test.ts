import { describe, expect, it } from "vitest";
import type { IcsSourceConfig } from "../../src/config/sources.ts";
import { loadIcsSource } from "../../src/sources/ics-source.ts";
import { choirConcert, choirFeed } from "../fixtures/choir-feed.ts";
import { NOW } from "../helpers/clock.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A partner's feed as calendar apps write one: a weekly choir rehearsal in
 * Amsterdam's zone (across the clock change of 29 March), one date struck
 * out (EXDATE), one cancelled and one moved by a VEVENT of their own
 * (RECURRENCE-ID), beside a one-off event in UTC.
 */
const FEED = choirFeed([
  "BEGIN:VTIMEZONE",
  "TZID:W. Europe Standard Time",
  "X-LIC-LOCATION:Europe/Amsterdam",
  "BEGIN:STANDARD",
  "DTSTART:16011028T030000",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:16010325T020000",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
  "BEGIN:VEVENT",
  "UID:rehearsal@choir.example",
  "DTSTAMP:20260101T000000Z",
  "SUMMARY:Choir rehearsal",
  "LOCATION:Music School",
  "DTSTART;TZID=W. Europe Standard Time:20260319T193000",
  "DTEND;TZID=W. Europe Standard Time:20260319T213000",
  "RRULE:FREQ=WEEKLY;COUNT=6",
  "EXDATE;TZID=W. Europe Standard Time:20260402T193000",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:rehearsal@choir.example",
  "DTSTAMP:20260101T000000Z",
  "RECURRENCE-ID;TZID=W. Europe Standard Time:20260409T193000",
  "SUMMARY:Choir rehearsal",
  "STATUS:CANCELLED",
  "DTSTART;TZID=W. Europe Standard Time:20260409T193000",
  "DTEND;TZID=W. Europe Standard Time:20260409T213000",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:rehearsal@choir.example",
  "DTSTAMP:20260101T000000Z",
  "RECURRENCE-ID;TZID=W. Europe Standard Time:20260416T193000",
  "SUMMARY:Choir rehearsal (in the church)",
  "LOCATION:Old Church",
  "DTSTART;TZID=W. Europe Standard Time:20260417T200000",
  "DTEND;TZID=W. Europe Standard Time:20260417T220000",
  "SEQUENCE:1",
  "END:VEVENT",
  ...choirConcert(),
]);

const source = (url: string, extra: Partial<IcsSourceConfig> = {}): IcsSourceConfig => ({
  kind: "ics",
  id: "choir",
  name: "City Choir",
  primary: false,
  entry: { id: "choir", name: "City Choir", ics: url },
  url,
  maxBytes: 1024 * 1024,
  timeoutMs: 10_000,
  cacheDir: tempDir("ics-source-"),
  allowStaleMs: 7 * 86_400_000,
  ...extra,
});

const load = (config: IcsSourceConfig) =>
  loadIcsSource(config, {
    defaultTimeZone: "Europe/London",
    now: new Date(NOW),
    sink: null,
    pastDays: 30,
  });

describe("ics-source", () => {
  it("should expand a weekly rule on its zone's wall clock, honour EXDATE, cancelled and moved dates", async () => {
    const server = await serveOnLoopback((_request, response) => {
      response.writeHead(200, { "content-type": "text/calendar" });
      response.end(FEED);
    });
    const { snapshot } = await load(source(`${server.origin}/agenda.ics?key=private`));
    expect(snapshot.calendars.map((c) => [c.id, c.name])).toEqual([["events", "City Choir"]]);
    const shown = snapshot.events.map((e) => [e.id, e.start, e.status, e.location?.name ?? null]);
    expect(shown).toEqual([
      [
        "rehearsal@choir.example_20260319T193000",
        "2026-03-19T19:30:00+01:00",
        "scheduled",
        "Music School",
      ],
      [
        "rehearsal@choir.example_20260326T193000",
        "2026-03-26T19:30:00+01:00",
        "scheduled",
        "Music School",
      ],
      // 2 April is struck out (EXDATE); after the clock change 19:30 is +02:00.
      [
        "rehearsal@choir.example_20260409T193000",
        "2026-04-09T19:30:00+02:00",
        "cancelled",
        // The date's own VEVENT says all there is of it (RFC 5545, 3.8.4.4): it names no place.
        null,
      ],
      // Moved to Friday 20:00, under the id of the date it replaces.
      [
        "rehearsal@choir.example_20260416T193000",
        "2026-04-17T20:00:00+02:00",
        "scheduled",
        "Old Church",
      ],
      [
        "rehearsal@choir.example_20260423T193000",
        "2026-04-23T19:30:00+02:00",
        "scheduled",
        "Music School",
      ],
      ["concert@choir.example", "2026-05-01T18:00:00+00:00", "scheduled", null],
    ]);
    expect(
      snapshot.events.every((e) => e.timeZone === "Europe/Amsterdam" || e.timeZone === "UTC"),
    ).toBe(true);
  });

  it("should use its last good data when the feed fails, with a warning naming the source", async () => {
    let up = true;
    const server = await serveOnLoopback((_request, response) => {
      response.writeHead(up ? 200 : 503);
      response.end(up ? FEED : "");
    });
    const config = source(`${server.origin}/agenda.ics`);
    const good = await load(config);
    up = false;
    const stale = await load(config);
    expect(stale.summary.stale).toBe(true);
    expect(stale.snapshot.events).toEqual(good.snapshot.events);
    expect(stale.snapshot.warnings.at(-1)).toMatch(
      /^source choir \(City Choir\): the feed answered HTTP 503; using its data from 2026-03-20T12:00:00\.000Z/,
    );
  });

  it("should stop a feed larger than its limit", async () => {
    const server = await serveOnLoopback((_request, response) => {
      response.writeHead(200);
      response.end(FEED.repeat(20));
    });
    await expect(
      load(source(`${server.origin}/a.ics`, { maxBytes: 4096, allowStaleMs: null })),
    ).rejects.toThrow(/larger than 4096 bytes/);
  });
});
