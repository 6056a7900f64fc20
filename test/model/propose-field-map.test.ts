import { describe, expect, it } from "vitest";
import { EMPTY_FIELD_MAP, parseFieldMap } from "../../src/model/field-map.ts";
import { normalizeCalendar } from "../../src/model/normalize-calendar.ts";
import { normalizeEvent } from "../../src/model/normalize-event.ts";
import { proposeFieldMap } from "../../src/model/propose-field-map.ts";
import type { WireRecord } from "../../src/model/wire.ts";

const calendarRecord: WireRecord = { id: 7, title: "Concerts", timezone: "Europe/Prague" };

/** A portal of another vendor: nothing but `id`, `name` and `timezone` has a name we know. */
function vendorEvent(n: number): { listed: WireRecord; details: WireRecord } {
  const day = String(10 + n).padStart(2, "0");
  const listed = {
    id: 100 + n,
    name: `Concert ${n}`,
    dateFrom: `2026-03-${day}T19:30:00`,
    dateTo: `2026-03-${day}T21:00:00`,
    lastChange: 1_772_352_000 + n,
  };
  return {
    listed,
    details: {
      ...listed,
      perex: `An evening of chamber music, part ${n}.`,
      longText: `<p>The <b>full</b> programme of concert ${n}.</p>`,
      venue: { name: "Rudolfinum", gps: "50.090,14.415" },
      poster: `https://cdn.example.cz/posters/${n}.jpg`,
      genres: ["Classical", "Chamber"],
      tickets: `https://tickets.example.cz/${n}`,
      isCanceled2: n === 2,
    },
  };
}

const events = [1, 2, 3].map(vendorEvent);

describe("proposeFieldMap", () => {
  it("should propose every missing field from the names and values it saw", () => {
    const { map, proposals } = proposeFieldMap(
      { calendars: [calendarRecord], events },
      EMPTY_FIELD_MAP,
    );
    expect(map.event).toEqual({
      start: "dateFrom",
      end: "dateTo",
      updatedAt: "lastChange",
      cancelled: "isCanceled2",
      image: "poster",
      registrationUrl: "tickets",
      categories: "genres",
      description: "longText",
      summary: "perex",
    });
    expect(proposals.find((p) => p.field === "start")?.reason).toMatch(
      /^date-times in 3 sampled records/,
    );
    // "venue" is a name we read anyway; its "lat,lon" string becomes the coordinates.
    const calendar = normalizeCalendar(calendarRecord, { fieldMap: map, defaultTimeZone: "UTC" });
    if (!calendar.ok) throw new Error(calendar.reason);
    const second = events[1] as { listed: WireRecord; details: WireRecord };
    const event = normalizeEvent(second.listed, second.details, calendar.value, {
      fieldMap: map,
      defaultTimeZone: "UTC",
    });
    if (!event.ok) throw new Error(event.reason);
    expect(event.value).toMatchObject({
      start: "2026-03-12T19:30:00+01:00",
      end: "2026-03-12T21:00:00+01:00",
      status: "cancelled",
      summary: "An evening of chamber music, part 2.",
      descriptionHtml: "<p>The <b>full</b> programme of concert 2.</p>",
      image: { url: "https://cdn.example.cz/posters/2.jpg" },
      categories: [
        { id: "classical", name: "Classical" },
        { id: "chamber", name: "Chamber" },
      ],
      registrationUrl: "https://tickets.example.cz/2",
      location: { name: "Rudolfinum", geo: { lat: 50.09, lon: 14.415 } },
      updatedAt: "2026-03-01T08:00:02Z",
    });
  });

  it("should take the earlier of two unnamed date-time fields as the start", () => {
    const records = [1, 2].map((n) => ({
      listed: { id: n, title: "Talk", b: `2026-05-0${n}T12:00:00Z`, a: `2026-05-0${n}T10:00:00Z` },
      details: null,
    }));
    const { map } = proposeFieldMap({ calendars: [], events: records }, EMPTY_FIELD_MAP);
    expect(map.event).toMatchObject({ start: "a", end: "b" });
  });

  it("should look into an envelope nothing reads", () => {
    const wrapped = events.map(({ listed, details }) => ({
      listed,
      details: { id: listed.id, payloadX: { perex: details.perex, poster: details.poster } },
    }));
    const { map } = proposeFieldMap({ calendars: [], events: wrapped }, EMPTY_FIELD_MAP);
    expect(map.event).toMatchObject({ summary: "payloadX.perex", image: "payloadX.poster" });
  });

  it("should keep the given map and never propose a field that is already read", () => {
    const given = parseFieldMap({ event: { summary: "longText", start: "dateFrom" } });
    const { map, proposals } = proposeFieldMap({ calendars: [], events }, given);
    expect(map.event.summary).toBe("longText");
    expect(map.event.start).toBe("dateFrom");
    expect(proposals.map((p) => p.field)).not.toContain("summary");
    expect(proposals.map((p) => p.field)).not.toContain("title");
    expect(proposals.map((p) => p.wire)).not.toContain("longText");
  });

  it("should leave out an entry that matches nothing, say so, and propose for its field afresh", () => {
    const given = parseFieldMap({
      calendar: { name: "label" },
      event: { summary: "data.blurb", start: "dateFrom" },
    });
    const { map, proposals, unmatched } = proposeFieldMap(
      { calendars: [calendarRecord], events },
      given,
    );
    expect(unmatched).toEqual([
      { kind: "event", field: "summary", wire: "data.blurb", rewrite: null },
      { kind: "calendar", field: "name", wire: "label", rewrite: null },
    ]);
    expect(map.event.summary).toBe("perex");
    expect(map.calendar.name).toBeUndefined();
    expect(proposals).toContainEqual(
      expect.objectContaining({ kind: "event", field: "summary", wire: "perex" }),
    );
  });

  it("should keep a translation's entry that the sample does not show, as portals translate only some events", () => {
    const given = parseFieldMap({ event: { "title.fr": "titre", start: "dateFrom" } });
    const { map, unmatched } = proposeFieldMap({ calendars: [], events }, given);
    expect(map.event["title.fr"]).toBe("titre");
    expect(unmatched).toEqual([]);
  });

  it("should not let an entry that matches nothing hide the common names", () => {
    const given = parseFieldMap({ event: { title: "headline", start: "dateFrom", end: "dateTo" } });
    const { map, proposals } = proposeFieldMap({ calendars: [], events }, given);
    expect(map.event.title).toBeUndefined();
    expect(proposals.map((p) => p.field)).not.toContain("title");
    const first = events[0] as { listed: WireRecord; details: WireRecord };
    const event = normalizeEvent(
      first.listed,
      first.details,
      { id: "7", timeZone: "UTC" },
      {
        fieldMap: map,
        defaultTimeZone: "UTC",
      },
    );
    expect(event.ok && event.value.title).toBe("Concert 1");
  });

  it("should keep an entry written for a details envelope that reads inside the unwrapped record", () => {
    const given = parseFieldMap({ event: { summary: "data.perex" } });
    const { map, proposals, unmatched } = proposeFieldMap({ calendars: [], events }, given);
    expect(unmatched).toEqual([]);
    expect(map.event.summary).toBe("data.perex");
    expect(proposals.map((p) => p.field)).not.toContain("summary");
  });

  it("should rewrite an envelope entry where the records' own field of that name takes the path", () => {
    const own = events.map(({ listed, details }) => ({
      listed,
      details: { ...details, data: { room: "Hall B" } },
    }));
    const given = parseFieldMap({ event: { summary: "data.perex" } });
    const { map, unmatched } = proposeFieldMap({ calendars: [], events: own }, given);
    expect(unmatched).toEqual([
      { kind: "event", field: "summary", wire: "data.perex", rewrite: "perex" },
    ]);
    expect(map.event.summary).toBe("perex");
  });

  it("should not judge event entries without a details record to judge them on", () => {
    const listedOnly = events.map(({ listed }) => ({ listed, details: null }));
    const given = parseFieldMap({ event: { summary: "perex" } });
    const { map, unmatched } = proposeFieldMap({ calendars: [], events: listedOnly }, given);
    expect(unmatched).toEqual([]);
    expect(map.event.summary).toBe("perex");
  });

  it("should propose nothing for the contract's own records", () => {
    const contract = {
      listed: {
        id: "e1",
        title: "Talk",
        start: "2026-05-01T10:00:00+02:00",
        updatedAt: "2026-03-01T08:00:00Z",
      },
      details: null,
    };
    expect(
      proposeFieldMap({ calendars: [], events: [contract] }, EMPTY_FIELD_MAP).proposals,
    ).toEqual([]);
  });
});
