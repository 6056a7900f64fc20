import { DateTime } from "luxon";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readMetrics } from "../../src/metrics.ts";
import { PerEvent } from "../../src/model/per-event.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import { type CalendarOptions, renderCalendar, renderEventIcs } from "../../src/outputs/ics.ts";
import { foldIcsLine } from "../../src/outputs/ics-lines.ts";
import { vtimezone } from "../../src/outputs/ics-timezones.ts";
import { hostileSnapshot } from "../fixtures/feeds-hostile.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import {
  icalJsCalendar,
  icalJsEvents,
  nodeIcalEvents,
  unfoldedLines,
} from "../helpers/ics-readers.ts";
import { SITE_WIDE, siteWith, type TEST_SITE } from "../helpers/test-site.ts";

const siteOptions = (overrides: Partial<CalendarOptions> = {}): CalendarOptions => ({
  ...SITE_WIDE,
  ...overrides,
});

const eventById = (id: string): CalendarEvent => {
  const event = hostileSnapshot.events.find((candidate) => candidate.id === id);
  if (!event) throw new Error(`no fixture event ${id}`);
  return event;
};

afterEach(() => {
  vi.useRealTimers();
});

describe("ics", () => {
  it("should give the DST-crossing event its real UTC instants in ical.js and node-ical", () => {
    const text = renderCalendar(fixtureSnapshot.events, siteOptions());
    expect(text).toContain("DTSTART;TZID=Europe/Amsterdam:20260329T013000\r\n");
    expect(text).toContain("DTEND;TZID=Europe/Amsterdam:20260329T040000\r\n");

    const walk = icalJsEvents(text).find((event) => event.uid.startsWith("community.e-dst@"));
    expect(walk?.startDate.toJSDate().toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(walk?.endDate.toJSDate().toISOString()).toBe("2026-03-29T02:00:00.000Z");

    const viaNode = nodeIcalEvents(text).find((event) => event.uid.startsWith("community.e-dst@"));
    expect(viaNode?.start.toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(viaNode?.end?.toISOString()).toBe("2026-03-29T02:00:00.000Z");
  });

  it("should write the event in another zone with its own TZID and VTIMEZONE", () => {
    const text = renderCalendar(fixtureSnapshot.events, siteOptions());
    const lecture = icalJsEvents(text).find((event) => event.uid.startsWith("culture.e-online@"));
    expect(lecture?.startDate.zone?.tzid).toBe("America/New_York");
    expect(lecture?.startDate.toJSDate().toISOString()).toBe("2026-04-02T16:00:00.000Z");
  });

  it("should write all-day and multi-day events as DATE values with an exclusive end", () => {
    const text = renderCalendar(fixtureSnapshot.events, siteOptions());
    const events = icalJsEvents(text);
    const kingsDay = events.find((event) => event.uid.startsWith("community.e-allday@"));
    const studios = events.find((event) => event.uid.startsWith("culture.e-multiday@"));
    expect(kingsDay?.startDate.isDate).toBe(true);
    expect(kingsDay?.startDate.toString()).toBe("2026-04-27");
    expect(kingsDay?.endDate.toString()).toBe("2026-04-28");
    expect(studios?.startDate.isDate).toBe(true);
    expect(studios?.startDate.toString()).toBe("2026-05-15");
    expect(studios?.endDate.toString()).toBe("2026-05-18");

    const viaNode = nodeIcalEvents(text).find((event) =>
      event.uid.startsWith("culture.e-multiday@"),
    );
    expect(viaNode?.datetype).toBe("date");
    const days = viaNode?.end ? (viaNode.end.getTime() - viaNode.start.getTime()) / 86_400_000 : 0;
    expect(Math.round(days)).toBe(3);
  });

  it("should give every VEVENT a unique UID built from portal ids and the site host", () => {
    const text = renderCalendar(hostileSnapshot.events, siteOptions());
    const uids = icalJsEvents(text).map((event) => event.uid);
    expect(uids.length).toBe(new Set(uids).size);
    for (const uid of uids) expect(uid).toMatch(/^[a-z0-9_-]+\.[a-z0-9_-]+@events\.example\.org$/);
    expect(uids).toContain("culture._57656972642f49443f3c783e@events.example.org");
  });

  it("should keep the UID when an event is renamed", () => {
    const walk = eventById("e-dst");
    const before = icalJsEvents(renderEventIcs(walk, siteOptions()))[0];
    const renamed = { ...walk, title: "A Completely Different Name" };
    const after = icalJsEvents(renderEventIcs(renamed, siteOptions()))[0];
    expect(after?.summary).toBe("A Completely Different Name");
    expect(after?.uid).toBe(before?.uid);
  });

  it("should raise SEQUENCE and LAST-MODIFIED when the portal changes an event", () => {
    const walk = eventById("e-dst");
    const changed = {
      ...walk,
      start: "2026-03-29T02:30:00+02:00",
      sequence: walk.sequence + 1,
      updatedAt: "2026-03-18T12:00:00Z",
    };
    const before = icalJsCalendar(renderEventIcs(walk, siteOptions())).getFirstSubcomponent(
      "vevent",
    );
    const after = icalJsCalendar(renderEventIcs(changed, siteOptions())).getFirstSubcomponent(
      "vevent",
    );
    expect(Number(after?.getFirstPropertyValue("sequence"))).toBeGreaterThan(
      Number(before?.getFirstPropertyValue("sequence")),
    );
    expect(String(after?.getFirstPropertyValue("last-modified"))).toBe("2026-03-18T12:00:00Z");
    expect(String(after?.getFirstPropertyValue("dtstamp"))).toBe("2026-03-18T12:00:00Z");
  });

  it("should take DTSTAMP from updatedAt, then createdAt, then the snapshot time, never the clock", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2031-07-07T07:07:07Z"));
    const walk = eventById("e-dst");
    const stamps = [
      walk,
      { ...walk, updatedAt: null },
      { ...walk, updatedAt: null, createdAt: null },
    ].map((event) => {
      const text = renderEventIcs(event, siteOptions());
      expect(text).not.toContain("2031");
      return unfoldedLines(text).find((line) => line.startsWith("DTSTAMP:"));
    });
    expect(stamps).toEqual([
      "DTSTAMP:20260310T090000Z",
      "DTSTAMP:20260201T100000Z",
      "DTSTAMP:20260320T120000Z",
    ]);
    expect(renderCalendar(hostileSnapshot.events, siteOptions())).not.toContain("2031");
  });

  it("should read an update time in any ISO form as its instant, and skip one that names no real day", () => {
    const walk = { ...eventById("e-dst"), createdAt: "2026-02-01T10:00:00Z" };
    const stamp = (updatedAt: string) =>
      unfoldedLines(renderEventIcs({ ...walk, updatedAt }, siteOptions())).find((line) =>
        line.startsWith("DTSTAMP:"),
      );
    // With an offset, with a fraction of a second, without an offset (read as UTC).
    expect(stamp("2026-03-10T10:00:00+01:00")).toBe("DTSTAMP:20260310T090000Z");
    expect(stamp("2026-03-10T09:00:00.750Z")).toBe("DTSTAMP:20260310T090000Z");
    expect(stamp("2026-03-10T09:00")).toBe("DTSTAMP:20260310T090000Z");
    // 30 February is no instant: the creation time stands in.
    expect(stamp("2026-02-30T09:00:00Z")).toBe("DTSTAMP:20260201T100000Z");
  });

  it("should render byte-identical output for the same events in any input order", () => {
    const first = renderCalendar(hostileSnapshot.events, siteOptions());
    const again = renderCalendar(hostileSnapshot.events, siteOptions());
    const reversed = renderCalendar([...hostileSnapshot.events].reverse(), siteOptions());
    expect(again).toBe(first);
    expect(reversed).toBe(first);
  });

  it("should end every line with CRLF and fold at 75 octets without splitting a character", () => {
    const text = renderCalendar(hostileSnapshot.events, siteOptions());
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const physical = text.split("\r\n").slice(0, -1);
    for (const line of physical) {
      expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
      // A split surrogate pair would not survive a UTF-8 round trip.
      expect(Buffer.from(line, "utf8").toString("utf8")).toBe(line);
    }
    const long = icalJsEvents(text).find((event) =>
      event.uid.startsWith("community.unicode-long@"),
    );
    expect(long?.summary).toBe(eventById("unicode-long").title);
  });

  it("should fold before a multi-byte character that would cross the 75-octet limit", () => {
    for (const filler of [72, 73, 74, 75]) {
      const line = `SUMMARY:${"x".repeat(filler - 8)}😀é漢${"😀".repeat(40)}`;
      const physical = foldIcsLine(line).split("\r\n");
      expect(physical.length).toBeGreaterThan(1);
      for (const [index, part] of physical.entries()) {
        expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
        if (index > 0) expect(part.startsWith(" ")).toBe(true);
        expect(part).not.toMatch(/[\ud800-\udbff]$/);
      }
      expect(physical.map((part, index) => (index > 0 ? part.slice(1) : part)).join("")).toBe(line);
    }
    expect(foldIcsLine("SHORT:line")).toBe("SHORT:line");
  });

  it("should not reuse one site's event lines for another site", () => {
    const walk = eventById("e-dst");
    const first = renderEventIcs(walk, siteOptions());
    const other = renderEventIcs(walk, {
      ...siteOptions(),
      site: siteWith({ url: "https://other.example.net" }),
    });
    expect(first).toContain("UID:community.e-dst@events.example.org\r\n");
    expect(other).toContain("UID:community.e-dst@other.example.net\r\n");
    expect(other).not.toContain("events.example.org");
  });

  it("should take a kept download's VEVENT into a calendar, the bytes it would make, and make any other", () => {
    const options = siteOptions();
    const made = renderCalendar(fixtureSnapshot.events, options);
    const vevents = made.match(/\r\nBEGIN:VEVENT\r\n/g)?.length ?? 0;
    expect(vevents).toBeGreaterThan(3);
    const downloads = new Map(
      fixtureSnapshot.events.map((event) => [event, Buffer.from(renderEventIcs(event, options))]),
    );
    const counted = (name: string) => readMetrics().counters[name] ?? 0;
    // With a build's memo, as the calendar files have (its size plan asks each event's lines too).
    const fromFiles = (files: ReadonlyMap<CalendarEvent | undefined, Buffer>) =>
      renderCalendar(fixtureSnapshot.events, {
        ...options,
        vevents: new PerEvent(),
        published: (event) => files.get(event),
      });
    const [readBefore, madeBefore] = [counted("ics.veventsReadBack"), counted("ics.vevents")];
    expect(fromFiles(downloads)).toBe(made);
    expect(counted("ics.veventsReadBack") - readBefore).toBe(vevents);
    expect(counted("ics.vevents") - madeBefore).toBe(0);
    // A file that is not one event's download (two VEVENTs, a VEVENT's first or last words
    // inside a line, none) gives nothing: those events' lines are made, to the same bytes.
    const [first, second, third, fourth] = fixtureSnapshot.events as CalendarEvent[];
    const odd = new Map<CalendarEvent | undefined, Buffer>([
      [first, Buffer.from(renderCalendar([first, second] as CalendarEvent[], options))],
      [second, Buffer.from("BEGIN:VCALENDAR\r\nX:BEGIN:VEVENT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")],
      [third, Buffer.from("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nX:END:VEVENT\r\nEND:VCALENDAR\r\n")],
      [fourth, Buffer.from("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")],
    ]);
    const madeOdd = counted("ics.vevents");
    expect(fromFiles(odd)).toBe(made);
    expect(counted("ics.vevents") - madeOdd).toBe(vevents);
  });

  it("should keep hostile text inside its property", () => {
    const text = renderCalendar(hostileSnapshot.events, siteOptions());
    const events = icalJsEvents(text);
    expect(events.length).toBe(nodeIcalEvents(text).length);
    expect(events.map((event) => event.uid)).not.toContain("evil@example.org");
    const injected = events.find((event) => event.uid.startsWith("community.injection@"));
    expect(injected?.summary).toBe("Injected END:VEVENT BEGIN:VEVENT UID:evil@example.org");
    expect(injected?.description).toContain("line one\nline two\nline three\nSUMMARY:fake");

    const breaker = events.find((event) => event.uid.startsWith("culture.cdata-breaker@"));
    expect(breaker?.summary).toBe("A ]]> B ]]> C <b>bold</b> & done");
    expect(breaker?.location).toBe('Hall; 1, "Main"');
    const categories = breaker?.component.getFirstProperty("categories")?.getValues();
    expect(categories).toEqual(["Semi; colon, comma \\ backslash"]);
    const organizer = breaker?.component.getFirstProperty("organizer");
    expect(organizer?.getFirstValue()).toBe("mailto:org@example.org");
    expect(organizer?.getParameter("cn")).toBe("Quote ' and / backslash");

    const hostile = events.find((event) => event.uid.startsWith("culture._5765"));
    expect(hostile?.summary).toBe('<script>alert("x")</script> & "Quotes"');
  });

  it("should carry NAME, X-WR-CALNAME, descriptions and refresh hints on subscriptions only", () => {
    const subscription = unfoldedLines(
      renderCalendar(
        fixtureSnapshot.events,
        siteOptions({ site: siteWith({ refreshMinutes: 90 }) }),
      ),
    );
    for (const line of [
      "METHOD:PUBLISH",
      "PRODID:-//Event Calendar Publisher//Events//EN",
      "NAME:City Events",
      "X-WR-CALNAME:City Events",
      "X-WR-CALDESC:Markets\\, walks\\, concerts\\; and more.",
      "DESCRIPTION:Markets\\, walks\\, concerts\\; and more.",
      "REFRESH-INTERVAL;VALUE=DURATION:PT1H30M",
      "X-PUBLISHED-TTL:PT1H30M",
      "SOURCE;VALUE=URI:https://events.example.org/calendar.ics",
    ]) {
      expect(subscription).toContain(line);
    }
    const single = renderEventIcs(eventById("e-dst"), siteOptions());
    expect(single).toContain("METHOD:PUBLISH\r\n");
    expect(single).not.toMatch(
      /^(NAME|X-WR-CALNAME|X-WR-CALDESC|REFRESH-INTERVAL|X-PUBLISHED-TTL)[:;]/m,
    );
  });

  it("should name calendar and category subscriptions after their scope", () => {
    const culture = renderCalendar(
      fixtureSnapshot.events.filter((event) => event.calendarId === "culture"),
      siteOptions({
        scope: { kind: "calendar", id: "culture", name: "Culture" },
        description: "Concerts, lectures & exhibitions.",
        color: "#862e9c",
      }),
    );
    const lines = unfoldedLines(culture);
    expect(lines).toContain("X-WR-CALNAME:Culture · City Events");
    expect(lines).toContain("X-WR-CALDESC:Concerts\\, lectures & exhibitions.");
    expect(lines).toContain("X-APPLE-CALENDAR-COLOR:#862E9C");
    expect(lines).toContain("URL:https://events.example.org/calendars/culture/");
  });

  it("should have a VTIMEZONE for every TZID it uses", () => {
    const text = renderCalendar(hostileSnapshot.events, siteOptions());
    const lines = unfoldedLines(text);
    const used = new Set(
      lines.flatMap((line) => [...line.matchAll(/;TZID=([^:;]+)/g)].map((m) => m[1])),
    );
    const defined = new Set(
      lines.filter((line) => line.startsWith("TZID:")).map((line) => line.slice("TZID:".length)),
    );
    expect([...used].sort()).toEqual(["America/New_York", "Europe/Amsterdam"]);
    expect([...defined].sort()).toEqual([...used].sort());
  });

  it("should rename linked zones in their VTIMEZONE to the name the events use", () => {
    const block = vtimezone("Europe/Amsterdam");
    expect(block).toMatch(/^BEGIN:VTIMEZONE\r\nTZID:Europe\/Amsterdam\r\n/);
    expect(block).not.toContain("Brussels");
    expect(vtimezone("Mars/Olympus_Mons")).toBeNull();
  });

  it("should map statuses to CONFIRMED, TENTATIVE and CANCELLED and say so in the title", () => {
    const events = icalJsEvents(renderCalendar(fixtureSnapshot.events, siteOptions()));
    const status = (id: string) =>
      events
        .find((event) => event.uid.includes(`.${id}@`))
        ?.component.getFirstPropertyValue("status");
    expect(status("e-dst")).toBe("CONFIRMED");
    expect(status("e-postponed")).toBe("TENTATIVE");
    expect(status("e-cancelled")).toBe("CANCELLED");
    expect(events.find((event) => event.uid.includes(".e-cancelled@"))?.summary).toBe(
      "Cancelled: Harbour Concert",
    );
  });

  it("should keep a cancelled event for the grace period after its end, then drop it", () => {
    const concertEnd = DateTime.fromISO("2026-04-04T22:00:00+02:00");
    const at = (days: number, overrides: Partial<typeof TEST_SITE> = {}) =>
      icalJsEvents(
        renderCalendar(
          fixtureSnapshot.events,
          siteOptions({ site: siteWith({ now: concertEnd.plus({ days }), ...overrides }) }),
        ),
      ).map((event) => event.uid.split("@")[0]);
    expect(at(-1)).toContain("culture.e-cancelled");
    expect(at(29)).toContain("culture.e-cancelled");
    expect(at(31)).not.toContain("culture.e-cancelled");
    expect(at(10, { cancelledGraceDays: 5 })).not.toContain("culture.e-cancelled");
    // The scheduled event of the same day follows the feed window instead.
    expect(at(10, { cancelledGraceDays: 5 })).toContain("culture.e-online");
  });

  it("should carry upcoming events plus feedPastDays of recent past", () => {
    const uids = (feedPastDays: number) =>
      icalJsEvents(
        renderCalendar(fixtureSnapshot.events, siteOptions({ site: siteWith({ feedPastDays }) })),
      ).map((event) => event.uid.split("@")[0]);
    // The Winter Market ended on 1 March, 19 days before the pinned now.
    expect(uids(30)).toContain("community.e-past");
    expect(uids(10)).not.toContain("community.e-past");
    expect(uids(10)).toContain("community.e-dst");
  });

  it("should write URL, GEO, IMAGE, ORGANIZER, LOCATION and CATEGORIES of an event", () => {
    const lines = unfoldedLines(renderEventIcs(eventById("e-dst"), siteOptions()));
    for (const expected of [
      "URL;VALUE=URI:https://events.example.org/calendars/community/events/e-dst/",
      "GEO:52.358;4.868",
      "IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/jpeg:https://media.example.org/walk.jpg",
      'ORGANIZER;CN="Buurtwerk Zuid":mailto:info@example.org',
      "LOCATION:Vondelpark fountain\\, Vondelpark 1\\, 1071 AA Amsterdam\\, NL",
      "CATEGORIES:Outdoors",
    ]) {
      expect(lines).toContain(expected);
    }
    const description = lines.find((line) => line.startsWith("DESCRIPTION:"));
    expect(description).toContain("https://events.example.org/calendars/community/events/e-dst/");

    const extensionless = unfoldedLines(renderEventIcs(eventById("cdata-breaker"), siteOptions()));
    expect(extensionless).toContain(
      "IMAGE;VALUE=URI;DISPLAY=BADGE:https://cdn.example.org/images/12345?w=800&h=600",
    );
  });

  it("should put the online URL in LOCATION of an online event", () => {
    const lines = unfoldedLines(renderEventIcs(eventById("e-online"), siteOptions()));
    expect(lines).toContain("LOCATION:https://stream.example.org/archives");
  });

  it("should name an ORGANIZER in every VEVENT, as RFC 5546 asks of METHOD:PUBLISH, read by ical.js and node-ical", () => {
    // The portal's organizer: by email, else by web address, else the site that publishes it.
    const withUrl = {
      ...eventById("e-dst"),
      id: "by-url",
      organizer: { name: "Harbour Arts", email: null, url: "https://harbour.example.org/about" },
    };
    const nameOnly = {
      ...eventById("e-dst"),
      id: "by-name",
      organizer: { name: "Neighbours", email: null, url: null },
    };
    const events = [...hostileSnapshot.events, withUrl, nameOnly];
    const site = siteWith({ url: "https://example.org/events", title: 'The "City" Events' });
    const text = renderCalendar(events, siteOptions({ site }));
    const organizers = new Map(
      icalJsEvents(text).map((event) => {
        const property = event.component.getFirstProperty("organizer");
        return [event.uid.split("@")[0], [property?.getFirstValue(), property?.getParameter("cn")]];
      }),
    );
    expect(organizers.size).toBe(events.length);
    const siteItself = ["https://example.org/events/", "The 'City' Events"];
    expect(organizers.get("community.e-dst")).toEqual([
      "mailto:info@example.org",
      "Buurtwerk Zuid",
    ]);
    expect(organizers.get("community.by-url")).toEqual([
      "https://harbour.example.org/about",
      "Harbour Arts",
    ]);
    expect(organizers.get("community.by-name")).toEqual(siteItself);
    expect(organizers.get("culture.e-online")).toEqual(siteItself);
    for (const [uid, [address]] of organizers) {
      // A CAL-ADDRESS is a URI (RFC 5545 3.3.3).
      expect(URL.canParse(String(address)), uid).toBe(true);
    }
    const nodeIcal = nodeIcalEvents(text);
    expect(nodeIcal).toHaveLength(events.length);
    for (const event of nodeIcal) expect(event.organizer, event.uid).toBeTruthy();
    // The same line in a single-event download: the VEVENT is the subscription's.
    expect(unfoldedLines(renderEventIcs(eventById("e-online"), siteOptions({ site })))).toContain(
      `ORGANIZER;CN="The 'City' Events":https://example.org/events/`,
    );
  });

  it("should skip an event whose time zone is unknown, with a warning naming it", () => {
    const warnings: string[] = [];
    const broken = { ...eventById("e-dst"), id: "bad-zone", timeZone: "Mars/Olympus_Mons" };
    const text = renderCalendar([broken, eventById("e-allday")], {
      ...siteOptions(),
      warn: (message) => warnings.push(message),
    });
    expect(text).not.toContain("bad-zone");
    expect(icalJsEvents(text)).toHaveLength(1);
    expect(warnings.join("\n")).toContain('"bad-zone"');
  });
});
