import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textLength } from "../../src/model/cut-text.ts";
import { EMPTY_FIELD_MAP, type FieldMap, parseFieldMap } from "../../src/model/field-map.ts";
import { normalizeCalendar } from "../../src/model/normalize-calendar.ts";
import { normalizeEvent, readSequence } from "../../src/model/normalize-event.ts";
import { RECORD_LIMITS } from "../../src/model/record-limits.ts";
import type { Calendar, CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { addToCalendarLinks } from "../../src/outputs/ics-add-to-calendar.ts";
import { checkProperty, hostileDetails } from "../helpers/hostile-records.ts";
import { htmlElements } from "../helpers/html-elements.ts";
import { normalizedEvent } from "../helpers/normalized-event.ts";

const options = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };

const calendar: Calendar = {
  id: "community",
  name: "Community",
  description: "",
  timeZone: "Europe/Amsterdam",
  color: null,
  updatedAt: null,
};

/** The list record of docs/api.md. */
const listed: WireRecord = {
  id: "e1042",
  calendarId: "community",
  title: "Repair Café",
  start: "2026-03-29T10:00:00+02:00",
  end: "2026-03-29T13:00:00+02:00",
  allDay: false,
  timeZone: "Europe/Amsterdam",
  status: "scheduled",
  revision: 3,
  updatedAt: "2026-03-01T08:00:00Z",
};

const address = {
  street: "Ferdinand Bolstraat 1",
  locality: "Amsterdam",
  region: "Noord-Holland",
  postalCode: "1072 LA",
  country: "NL",
};

/** The details record of docs/api.md. */
const details: WireRecord = {
  ...listed,
  summary: "Bring what is broken; volunteers help you fix it.",
  description: "<p>HTML, as entered in the portal's editor.</p>",
  location: { name: "Community Centre De Pijp", address, geo: { lat: 52.3547, lon: 4.8918 } },
  onlineUrl: null,
  attendanceMode: "offline",
  image: {
    url: "http://127.0.0.1:4010/media/repair-cafe.svg",
    alt: "Volunteers repairing a lamp",
    width: 1200,
    height: 630,
  },
  categories: [{ id: "sustainability", name: "Sustainability" }],
  organizer: { name: "Buurtwerk Zuid", email: "info@example.org", url: "https://example.org" },
  registrationUrl: "https://example.org/register/e1042",
  createdAt: "2026-02-10T14:03:00Z",
};

const event = (record: WireRecord, details: WireRecord | null = null, fieldMap?: FieldMap) =>
  normalizedEvent(record, { calendar, details, fieldMap });

function reason(record: WireRecord): string {
  const result = normalizeEvent(record, null, calendar, options);
  if (result.ok) throw new Error("expected the record to be skipped");
  return result.reason;
}

describe("normalizeEvent", () => {
  it("should turn the documented wire records into a complete domain event", () => {
    expect(event(listed, details)).toEqual({
      id: "e1042",
      calendarId: "community",
      title: "Repair Café",
      summary: "Bring what is broken; volunteers help you fix it.",
      descriptionHtml: "<p>HTML, as entered in the portal's editor.</p>",
      descriptionText: "HTML, as entered in the portal's editor.",
      start: "2026-03-29T10:00:00+02:00",
      end: "2026-03-29T13:00:00+02:00",
      allDay: false,
      timeZone: "Europe/Amsterdam",
      status: "scheduled",
      attendanceMode: "offline",
      location: {
        name: "Community Centre De Pijp",
        address: {
          ...address,
          formatted: "Ferdinand Bolstraat 1, 1072 LA Amsterdam, Noord-Holland, NL",
        },
        geo: { lat: 52.3547, lon: 4.8918 },
      },
      onlineUrl: null,
      // Valid as the portal sent them: carried over unchanged.
      image: details.image,
      categories: details.categories,
      organizer: details.organizer,
      registrationUrl: details.registrationUrl,
      createdAt: details.createdAt,
      updatedAt: "2026-03-01T08:00:00Z",
      sequence: 3,
    });
  });

  it("should keep real duration across the DST change (01:30 CET to 04:00 CEST)", () => {
    const walk = event({ ...listed, start: "2026-03-29T01:30:00", end: "2026-03-29T04:00:00" });
    expect(walk.start).toBe("2026-03-29T01:30:00+01:00");
    expect(walk.end).toBe("2026-03-29T04:00:00+02:00");
    expect(Date.parse(walk.end) - Date.parse(walk.start)).toBe(90 * 60_000);
  });

  it("should read times without offset as wall-clock time in the event's zone", () => {
    const ny = event({
      ...listed,
      timeZone: "America/New_York",
      start: "2026-04-02T12:00:00",
      end: null,
    });
    expect(ny.start).toBe("2026-04-02T12:00:00-04:00");
    expect(ny.timeZone).toBe("America/New_York");
  });

  it("should express instants with an offset in the event's zone", () => {
    const utc = event({ ...listed, start: "2026-07-01T08:00:00Z", end: "2026-07-01T09:00:00Z" });
    expect(utc.start).toBe("2026-07-01T10:00:00+02:00");
  });

  it("should fall back to the calendar's zone, then the site default", () => {
    const { timeZone: _, ...withoutZone } = listed;
    const inCalendar = normalizeEvent(
      withoutZone,
      null,
      { ...calendar, timeZone: "Europe/London" },
      options,
    );
    expect(inCalendar.ok && inCalendar.value.start).toBe("2026-03-29T09:00:00+01:00");
    const bare = normalizeCalendar(
      { id: "x", name: "X" },
      { ...options, defaultTimeZone: "Asia/Tokyo" },
    );
    expect(bare.ok && bare.value.timeZone).toBe("Asia/Tokyo");
  });

  it("should keep a calendar's plain-text description as written", () => {
    const result = normalizeCalendar(
      { id: "x", name: "X", description: "Bring <your> own cup &amp; a friend" },
      options,
    );
    expect(result.ok && result.value.description).toBe("Bring <your> own cup & a friend");
  });

  it("should make date-only events all-day with an exclusive end (RFC 5545)", () => {
    const single = event({ ...listed, start: "2026-05-01", end: "2026-05-02", allDay: undefined });
    expect(single).toMatchObject({
      allDay: true,
      start: "2026-05-01T00:00:00+02:00",
      end: "2026-05-02T00:00:00+02:00",
    });
    const noEnd = event({ ...listed, start: "2026-05-01", end: undefined, allDay: true });
    expect(noEnd.end).toBe("2026-05-02T00:00:00+02:00");
    const inclusive = event({ ...listed, start: "2026-05-01", end: "2026-05-01", allDay: true });
    expect(inclusive.end).toBe("2026-05-02T00:00:00+02:00");
  });

  it("should keep multi-day all-day and timed events whole", () => {
    const weekend = event({ ...listed, start: "2026-05-15", end: "2026-05-18", allDay: true });
    expect(weekend.end).toBe("2026-05-18T00:00:00+02:00");
    const festival = event({
      ...listed,
      start: "2026-05-15T18:00:00+02:00",
      end: "2026-05-17T23:00:00+02:00",
    });
    expect(festival.end).toBe("2026-05-17T23:00:00+02:00");
    const flagged = event({
      ...listed,
      start: "2026-05-15T09:00:00+02:00",
      end: "2026-05-16T17:00:00+02:00",
      allDay: true,
    });
    expect(flagged).toMatchObject({
      start: "2026-05-15T00:00:00+02:00",
      end: "2026-05-17T00:00:00+02:00",
    });
  });

  it("should end a timed event without an end when it starts", () => {
    const { end: _, ...noEnd } = listed;
    expect(event(noEnd).end).toBe("2026-03-29T10:00:00+02:00");
  });

  it("should read epoch seconds and milliseconds, as numbers or strings", () => {
    const seconds = event({ ...listed, start: 1_774_771_200, end: "1774774800" });
    expect(seconds.start).toBe("2026-03-29T10:00:00+02:00");
    expect(seconds.end).toBe("2026-03-29T11:00:00+02:00");
    expect(event({ ...listed, start: 1_774_771_200_000, end: null }).start).toBe(
      "2026-03-29T10:00:00+02:00",
    );
  });

  it.each([
    [{ ...listed, id: undefined }, "no id"],
    [{ ...listed, id: "" }, "no id"],
    [{ ...listed, start: "next tuesday" }, 'unparseable start date "next tuesday"'],
    [{ ...listed, start: undefined }, "no start date"],
    [{ ...listed, end: "2026-03-29T09:00:00+02:00" }, "end before start"],
    [{ ...listed, timeZone: "Mars/Olympus_Mons" }, 'unknown time zone "Mars/Olympus_Mons"'],
    [{ ...listed, title: "  " }, "no title"],
  ])("should reject a bad record (%#) with the reason", (record, expected) => {
    expect(reason(record)).toBe(expected);
  });

  it("should accept common field-name variants", () => {
    const variant = event({
      event_id: 7,
      name: "Quiz",
      start_time: "2026-06-01 19:00:00",
      endDate: "2026-06-01T21:00:00",
      tz: "Europe/Amsterdam",
      is_all_day: false,
      state: "Canceled",
      tags: ["Pub quiz", "Fun & Games"],
      updated_at: "2026-05-01T10:00:00Z",
    });
    expect(variant).toMatchObject({
      id: "7",
      title: "Quiz",
      start: "2026-06-01T19:00:00+02:00",
      end: "2026-06-01T21:00:00+02:00",
      status: "cancelled",
      categories: [
        { id: "pub-quiz", name: "Pub quiz" },
        { id: "fun-games", name: "Fun & Games" },
      ],
    });
  });

  it("should let the field map override the variants", () => {
    const map = parseFieldMap({ event: { title: "headline", start: "when.begins", id: "ref" } });
    const mapped = event(
      {
        ref: "x1",
        headline: "Mapped",
        title: "Not this",
        when: { begins: "2026-06-01T10:00:00+02:00" },
      },
      null,
      map,
    );
    expect(mapped).toMatchObject({ id: "x1", title: "Mapped", start: "2026-06-01T10:00:00+02:00" });
  });

  it("should map status words onto scheduled, postponed and cancelled", () => {
    const status = (value: unknown) => event({ ...listed, status: value }).status;
    expect(status("confirmed")).toBe("scheduled");
    expect(status("https://schema.org/EventRescheduled")).toBe("scheduled");
    expect(status("POSTPONED")).toBe("postponed");
    expect(status("EventCancelled")).toBe("cancelled");
    expect(event({ ...listed, status: "active", cancelled: true }).status).toBe("cancelled");
    const unknown = normalizeEvent({ ...listed, status: "on-fire" }, null, calendar, options);
    expect(unknown.ok && unknown.notes).toEqual(['unknown status "on-fire", treated as scheduled']);
  });

  it("should derive the attendance mode when the portal gives none", () => {
    const base = { ...details, attendanceMode: undefined };
    expect(event(listed, { ...base, onlineUrl: "https://meet.example.org/x" }).attendanceMode).toBe(
      "mixed",
    );
    expect(
      event(listed, { ...base, location: null, onlineUrl: "https://meet.example.org/x" })
        .attendanceMode,
    ).toBe("online");
    expect(event(listed, base).attendanceMode).toBe("offline");
    expect(event(listed, { ...details, attendanceMode: "hybrid" }).attendanceMode).toBe("mixed");
  });

  it("should sanitize hostile HTML and drop unsafe links", () => {
    const hostile = event(listed, {
      ...details,
      title: "<script>alert(1)</script>Concert <b>live</b>",
      description:
        '<p onclick="steal()">Hi <a href="javascript:alert(1)">click</a> <a href="https://ok.example/">ok</a></p><img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe><style>body{}</style>',
      onlineUrl: "javascript:alert(1)",
      registrationUrl: "data:text/html,<script>alert(1)</script>",
      image: { url: "javascript:alert(1)", alt: "x" },
      organizer: { name: "Org", email: "not an email", url: "vbscript:x" },
    });
    // Titles are plain text: kept as written, escaped by every output.
    expect(hostile.title).toBe("<script>alert(1)</script>Concert <b>live</b>");
    expect(hostile.descriptionHtml).toBe(
      '<p>Hi <a>click</a> <a href="https://ok.example/" rel="noopener noreferrer">ok</a></p>',
    );
    expect(hostile.descriptionText).toBe("Hi click ok (https://ok.example/)");
    expect(hostile.onlineUrl).toBeNull();
    expect(hostile.registrationUrl).toBeNull();
    expect(hostile.image).toBeNull();
    expect(hostile.organizer).toEqual({ name: "Org", email: null, url: null });
  });

  it("should turn a plain-text description into paragraphs", () => {
    const plain = event(listed, { ...details, description: "Line one\nline two\n\nA < B & C" });
    expect(plain.descriptionHtml).toBe("<p>Line one<br />line two</p><p>A &lt; B &amp; C</p>");
    expect(plain.descriptionText).toBe("Line one\nline two\n\nA < B & C");
  });

  it("should keep plain-text titles as written, decoding character references", () => {
    expect(event(listed, { ...details, title: "Poetry &amp; Beats <Open Mic>" }).title).toBe(
      "Poetry & Beats <Open Mic>",
    );
    expect(event(listed, { ...details, title: "Line\nbreak\u0007 here" }).title).toBe(
      "Line break here",
    );
  });

  it("should prefer details over the list record", () => {
    expect(event(listed, { ...details, title: "Renamed" }).title).toBe("Renamed");
  });

  it.each([
    ["a {lat, lon} object", { lat: 50.087, lon: 14.421 }],
    ['a "lat,lon" string', "50.087,14.421"],
    ['a "lat, lon" string with a space', "50.087, 14.421"],
    ["a GeoJSON Point ([lon, lat])", { type: "Point", coordinates: [14.421, 50.087] }],
    [
      "a GeoJSON Feature",
      { type: "Feature", geometry: { type: "Point", coordinates: [14.421, 50.087] } },
    ],
    ["digit strings under latitude/longitude", { latitude: "50.087", longitude: "14.421" }],
  ])("should read a place's coordinates given as %s", (_, geo) => {
    const place = event(listed, { ...details, location: { name: "Old Town Square", geo } });
    expect(place.location?.geo).toEqual({ lat: 50.087, lon: 14.421 });
    expect(place.location?.name).toBe("Old Town Square");
  });

  it("should read coordinates under other common keys, and a place that is only coordinates", () => {
    const gps = event(listed, { ...details, location: { name: "Square", gps: "50.087,14.421" } });
    expect(gps.location?.geo).toEqual({ lat: 50.087, lon: 14.421 });
    const bare = event(listed, { ...details, location: "50.087,14.421" });
    expect(bare.location).toEqual({ name: null, address: null, geo: { lat: 50.087, lon: 14.421 } });
  });

  it.each([
    ["a bare array (its order cannot be told)", [14.421, 50.087]],
    ["an out-of-range string", "95.1,14.4"],
    ["a Point without numbers", { type: "Point", coordinates: ["a", "b"] }],
  ])("should read no coordinates from %s", (_, geo) => {
    expect(
      event(listed, { ...details, location: { name: "Square", geo } }).location?.geo,
    ).toBeNull();
  });

  it("should read epoch seconds and milliseconds in every time field, not only start and end", () => {
    const seconds = event(
      { ...listed, updatedAt: 1_772_352_000 },
      { ...details, updatedAt: 1_772_352_000, createdAt: "1770732180" },
    );
    expect(seconds.updatedAt).toBe("2026-03-01T08:00:00Z");
    expect(seconds.createdAt).toBe("2026-02-10T14:03:00Z");
    const millis = event(listed, {
      ...details,
      updatedAt: 1_772_352_000_000,
      createdAt: "1770732180000",
    });
    expect(millis.updatedAt).toBe("2026-03-01T08:00:00Z");
    expect(millis.createdAt).toBe("2026-02-10T14:03:00Z");
    const cal = normalizeCalendar({ id: "c", name: "C", updatedAt: 1_772_352_000 }, options);
    expect(cal.ok && cal.value.updatedAt).toBe("2026-03-01T08:00:00Z");
  });
});

describe("readSequence", () => {
  it("should use the revision when there is one", () => {
    expect(readSequence(3, "2026-03-01T08:00:00Z")).toBe(3);
  });

  it("should derive a rising 32-bit value from updatedAt otherwise", () => {
    const a = readSequence(undefined, "2026-03-01T08:00:00Z");
    const b = readSequence(undefined, "2026-03-01T08:00:01Z");
    expect(b).toBe(a + 1);
    expect(readSequence(undefined, "2088-01-01T00:00:00Z")).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(readSequence(undefined, null)).toBe(0);
  });
});

/** Every string of a value, however deep. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(stringsOf);
}

describe("normalizeEvent, with records an editor made hostile", () => {
  const withNotes = (record: WireRecord) => {
    const result = normalizeEvent(listed, { ...details, ...record }, calendar, options);
    if (!result.ok) throw new Error(result.reason);
    return result;
  };

  it("should publish text with lone surrogates well-formed, so that links and files can carry it", () => {
    const result = withNotes({
      title: "Broken \ud800 title",
      summary: "\udc00 summary",
      description: "<p>Text \ud83d</p>",
      location: { name: "Hall \ud800", address: { street: "Street \udfff 1" } },
      categories: ["Music \ud800"],
      organizer: { name: "\ud800 Org" },
    });
    for (const text of stringsOf(result.value)) expect(text.isWellFormed(), text).toBe(true);
    expect(result.value.title).toBe("Broken \ufffd title");
    // The add-to-calendar links encode the title: a lone surrogate threw URIError there.
    expect(() => addToCalendarLinks(result.value, "https://events.example.org/x/")).not.toThrow();
    expect(result.notes).toContain("title: lone UTF-16 surrogates replaced by U+FFFD");
  });

  it("should skip an event whose id is not well-formed, saying why: it could not keep one address", () => {
    expect(reason({ ...listed, id: "e\ud800" })).toBe(
      "id is not well-formed Unicode (a lone UTF-16 surrogate)",
    );
    expect(reason({ ...listed, id: "x".repeat(257) })).toBe("id longer than 256 characters");
  });

  it("should remove bidirectional overrides from plain text and keep isolates balanced", () => {
    const value = withNotes({
      title: "Tickets \u202eeerf\u202c today",
      location: { name: "\u2067مهرجان" },
    }).value;
    expect(value.title).toBe("Tickets eerf today");
    expect(value.location?.name).toBe("\u2067مهرجان\u2069");
  });

  it("should publish the first 30 categories of 500, and say so", () => {
    const result = withNotes({
      categories: Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, name: `Category ${i}` })),
    });
    expect(result.value.categories).toHaveLength(30);
    expect(result.value.categories.at(-1)).toEqual({ id: "c29", name: "Category 29" });
    expect(result.notes).toEqual(["500 categories, the first 30 are published"]);
    // Duplicates count once: thirty distinct categories are not cut.
    const repeated = withNotes({ categories: [...Array(40).fill("Music"), "Jazz"] });
    expect(repeated.value.categories.map((c) => c.name)).toEqual(["Music", "Jazz"]);
    expect(repeated.notes).toEqual([]);
  });

  it("should cut a long title, summary, place and names at a word, with an ellipsis, and say so", () => {
    const words = (n: number) => "word ".repeat(n).trim();
    const result = withNotes({
      title: words(1_000),
      summary: words(1_000),
      location: { name: "N".repeat(10_000), address: { street: words(100), locality: "Delft" } },
      organizer: { name: words(100) },
      categories: [{ id: "long", name: words(50) }],
      image: { url: "https://example.org/a.png", alt: words(1_000) },
    });
    const { value } = result;
    expect(value.title).toBe(`${words(60)}…`);
    expect(textLength(value.title)).toBeLessThanOrEqual(300);
    expect(textLength(value.summary)).toBeLessThanOrEqual(1_000);
    expect(value.location?.name).toBe(`${"N".repeat(299)}…`);
    expect(textLength(value.location?.address?.street ?? "")).toBeLessThanOrEqual(200);
    expect(textLength(value.organizer?.name ?? "")).toBeLessThanOrEqual(300);
    expect(textLength(value.categories[0]?.name ?? "")).toBeLessThanOrEqual(100);
    expect(textLength(value.image?.alt ?? "")).toBeLessThanOrEqual(1_000);
    expect(result.notes).toEqual([
      "title: 4,999 characters, cut to 300",
      "summary: 4,999 characters, cut to 1,000",
      "place name: 10,000 characters, cut to 300",
      "address street: 499 characters, cut to 200",
      "image text: 4,999 characters, cut to 1,000",
      "a category name cut to 100 characters",
      "organizer name: 499 characters, cut to 300",
    ]);
  });

  it("should cut a description to 30,000 characters of HTML, and read no more than 300,000 of it", () => {
    const huge = withNotes({ description: `<p>${"word ".repeat(1_000_000)}</p>` });
    expect(textLength(huge.value.descriptionHtml)).toBeLessThanOrEqual(30_000);
    expect(huge.value.descriptionHtml).toMatch(/^<p>word word .*word…<\/p>$/);
    expect(huge.value.descriptionText.endsWith("word…")).toBe(true);
    expect(huge.notes).toEqual(["description: 5,000,007 characters of HTML, cut to 30,000"]);
    const markup = withNotes({ description: "<p><b>x</b></p>".repeat(5_000) });
    expect(textLength(markup.value.descriptionHtml)).toBeLessThanOrEqual(30_000);
    expect(markup.notes).toEqual(["description: 75,000 characters of HTML, cut to 30,000"]);
  });

  it("should leave out a URL longer than 2,000 characters rather than cut it, and say so", () => {
    const long = `https://example.org/${"a".repeat(2_000)}`;
    const result = withNotes({
      onlineUrl: long,
      registrationUrl: long,
      organizer: { name: "Org", url: long },
      description: `<p><a href="${long}">the programme</a></p>`,
    });
    expect(result.value.onlineUrl).toBeNull();
    expect(result.value.registrationUrl).toBeNull();
    expect(result.value.organizer?.url).toBeNull();
    // A link of the description keeps its text.
    expect(result.value.descriptionHtml).toBe("<p><a>the programme</a></p>");
    expect(result.notes).toEqual([
      "online URL left out: 2,020 characters, more than 2,000",
      "organizer URL left out: 2,020 characters, more than 2,000",
      "registration URL left out: 2,020 characters, more than 2,000",
    ]);
  });

  it("should carry access features only on events whose portal names any, under a mapped name too", () => {
    expect(event(listed, details)).not.toHaveProperty("access");
    expect(event(listed, { ...details, accessibility: [] })).not.toHaveProperty("access");
    expect(event(listed, { ...details, accessibility: ["hearing-loop"] }).access).toEqual([
      { feature: "hearing-loop" },
    ]);
    const mapped = parseFieldMap({ event: { accessibility: "venue.access" } });
    expect(event(listed, { ...details, venue: { access: ["Step-free"] } }, mapped).access).toEqual([
      { feature: "step-free-access" },
    ]);
  });

  it("should publish the first 50 performers, and say so", () => {
    const result = withNotes({ performer: Array.from({ length: 80 }, (_, i) => `Band ${i}`) });
    expect(result.value.performers).toHaveLength(50);
    expect(result.notes).toEqual(["80 performers, the first 50 are published"]);
  });
});

describe("normalizeEvent, with the translations the field map names", () => {
  const map = parseFieldMap({
    event: { "title.fr": "title_fr", "summary.fr": "teaser_fr", "description.FR": "text.fr" },
  });

  it("should read each language's texts as the portal's own are read, and nothing unmapped", () => {
    const translated = event(
      listed,
      {
        ...details,
        title_fr: "Café de la réparation &amp; plus",
        teaser_fr: "Apportez ce qui est cassé.",
        text: { fr: '<p onclick="x()">En <b>français</b>.<script>alert(1)</script></p>' },
        title_de: "Reparaturcafé",
      },
      map,
    );
    expect(translated.translations).toEqual({
      fr: {
        title: "Café de la réparation & plus",
        summary: "Apportez ce qui est cassé.",
        descriptionHtml: "<p>En <b>français</b>.</p>",
        descriptionText: "En français.",
      },
    });
    // The portal's own texts stay as they were.
    expect(translated.title).toBe("Repair Café");
  });

  it("should leave the field off an event without translations, and off every event without the map", () => {
    expect(event(listed, details, map)).not.toHaveProperty("translations");
    expect(event(listed, { ...details, title_fr: "  " }, map)).not.toHaveProperty("translations");
    expect(event(listed, { ...details, title_fr: "Café" })).not.toHaveProperty("translations");
  });

  it("should hold a translation to the record's limits, and name it in the notes", () => {
    const result = normalizeEvent(
      listed,
      { ...details, title_fr: `${"mot ".repeat(200)}fin`, teaser_fr: "\ud800 résumé" },
      calendar,
      { ...options, fieldMap: map },
    );
    if (!result.ok) throw new Error(result.reason);
    const title = result.value.translations?.fr?.title ?? "";
    expect(textLength(title)).toBeLessThanOrEqual(RECORD_LIMITS.title);
    expect(result.notes).toEqual([
      "title.fr: 803 characters, cut to 300",
      "summary.fr: lone UTF-16 surrogates replaced by U+FFFD",
    ]);
  });

  it("should refuse a translation whose language is no language tag, in the setting's words", () => {
    expect(() => parseFieldMap({ event: { "title.not a tag": "t" } })).toThrow(
      'event.title.not a tag: "not a tag" is not a language tag (expected e.g. title.fr, description.pt-BR)',
    );
    expect(() => parseFieldMap({ event: { "location.fr": "l" } })).toThrow(/unknown event field/);
    expect(parseFieldMap({ "event.title.pt-br": "t" }).event).toEqual({ "title.pt-BR": "t" });
  });
});

/** Plain-text fields of an event: what a page, a feed or a calendar shows as text. */
function plainTexts(event: CalendarEvent): string[] {
  const place = event.location;
  return [
    event.title,
    event.summary,
    event.descriptionText,
    place?.name ?? "",
    ...Object.values(place?.address ?? {}).map((part) => part ?? ""),
    event.image?.alt ?? "",
    ...event.categories.map((c) => c.name),
    event.organizer?.name ?? "",
    ...(event.performers ?? []).map((p) => p.name),
    ...(event.access ?? []).map((a) => ("text" in a ? a.text : "")),
  ];
}

/** Every URL an event links to. */
function urlsOf(event: CalendarEvent): string[] {
  return [
    event.onlineUrl,
    event.registrationUrl,
    event.image?.url,
    event.organizer?.url,
    ...(event.performers ?? []).map((p) => p.url),
    ...htmlElements(event.descriptionHtml).map((e) => e.attributes.get("href")),
  ].filter((url): url is string => typeof url === "string");
}

/** What a sanitized description may hold (src/model/sanitize.ts), and what a parser adds around it. */
const DESCRIPTION_TAGS = new Set(
  "html head body p br strong b em i u s ul ol li a h2 h3 h4 blockquote code pre hr".split(" "),
);

describe("normalizeEvent, on random hostile records (fast-check)", () => {
  it("should hold translations to the same limits as the portal's own texts", async () => {
    // Each language's texts read from the same hostile fields the portal's are.
    const map = parseFieldMap({
      event: { "title.fr": "title", "summary.fr": "summary", "description.fr": "description" },
    });
    await checkProperty(
      fc.property(hostileDetails, (fields) => {
        const record = { ...listed, ...fields };
        const result = normalizeEvent(record, record, calendar, { ...options, fieldMap: map });
        if (!result.ok) return;
        const texts = result.value.translations?.fr ?? {};
        for (const text of Object.values(texts)) expect(text.isWellFormed()).toBe(true);
        expect(textLength(texts.title ?? "")).toBeLessThanOrEqual(RECORD_LIMITS.title);
        expect(textLength(texts.summary ?? "")).toBeLessThanOrEqual(RECORD_LIMITS.summary);
        expect(textLength(texts.descriptionHtml ?? "")).toBeLessThanOrEqual(
          RECORD_LIMITS.description,
        );
        for (const element of htmlElements(texts.descriptionHtml ?? "")) {
          expect(DESCRIPTION_TAGS.has(element.tagName), element.tagName).toBe(true);
          for (const name of element.attributes.keys()) expect(["href", "rel"]).toContain(name);
        }
      }),
      { seed: 20260320, numRuns: 50 },
    );
  });

  it("should never throw, and publish only well-formed, inert text within the limits", async () => {
    await checkProperty(
      fc.property(fc.tuple(hostileDetails, hostileDetails), ([listedFields, detailsFields]) => {
        const record = { ...listed, ...listedFields };
        const result = normalizeEvent(record, { ...record, ...detailsFields }, calendar, options);
        if (!result.ok) {
          expect(result.reason.isWellFormed()).toBe(true);
          return;
        }
        const { value, notes } = result;
        for (const note of notes) expect(note.isWellFormed()).toBe(true);
        for (const text of [...plainTexts(value), value.descriptionHtml]) {
          expect(text.isWellFormed()).toBe(true);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
          expect(text).not.toMatch(/[\u202a-\u202e\ufffe\uffff\u0000-\u0008]/);
        }
        for (const text of plainTexts(value)) {
          const opened = text.match(/[\u2066-\u2068]/g)?.length ?? 0;
          expect(text.match(/\u2069/g)?.length ?? 0, "isolates balanced").toBe(opened);
        }
        expect(textLength(value.title)).toBeLessThanOrEqual(RECORD_LIMITS.title);
        expect(textLength(value.summary)).toBeLessThanOrEqual(RECORD_LIMITS.summary);
        expect(textLength(value.descriptionHtml)).toBeLessThanOrEqual(RECORD_LIMITS.description);
        expect(textLength(value.location?.name ?? "")).toBeLessThanOrEqual(RECORD_LIMITS.name);
        expect(value.categories.length).toBeLessThanOrEqual(RECORD_LIMITS.categories);
        expect((value.performers ?? []).length).toBeLessThanOrEqual(RECORD_LIMITS.performers);
        for (const url of urlsOf(value)) {
          expect(url.length).toBeLessThanOrEqual(RECORD_LIMITS.url);
          expect(url).toMatch(/^(https?:\/\/|mailto:)/i);
        }
        for (const element of htmlElements(value.descriptionHtml)) {
          expect(DESCRIPTION_TAGS.has(element.tagName), element.tagName).toBe(true);
          for (const name of element.attributes.keys()) expect(["href", "rel"]).toContain(name);
        }
        // Whatever the records hold, one event is this much data at most.
        expect(JSON.stringify(value).length).toBeLessThan(MODEL_BYTES_PER_EVENT);
      }),
      { seed: 20260320, numRuns: 150 },
    );
  });
});

/**
 * The most one event's model holds, from the limits: its description twice
 * (HTML and text), performers with their links, the rest small.
 */
const MODEL_BYTES_PER_EVENT = 400_000;
