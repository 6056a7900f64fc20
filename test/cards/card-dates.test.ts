import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CardWriter } from "../../src/cards/card-content.ts";
import { CardDates } from "../../src/cards/card-dates.ts";
import { formatWhen } from "../../src/site/format.ts";
import { calendarEvent, calendarOf } from "../helpers/events.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const SITE = { lang: "en-GB", title: "Buurtleven", description: "", address: "events.example.org" };
const CALENDAR = calendarOf("music", "Music");

/** Events whose "when" lines differ by each of the fields the line is made from. */
const EVENTS = [
  calendarEvent({
    id: "evening",
    calendarId: "music",
    title: "Jazz",
    start: "2026-12-04T19:30:00+01:00",
    end: "2026-12-04T22:00:00+01:00",
  }),
  calendarEvent({
    id: "later",
    calendarId: "music",
    title: "Jazz",
    start: "2026-12-04T19:30:00+01:00",
    end: "2026-12-04T23:00:00+01:00",
  }),
  calendarEvent({
    id: "all-day",
    calendarId: "music",
    title: "Fair",
    allDay: true,
    start: "2026-12-04T00:00:00+01:00",
    end: "2026-12-06T00:00:00+01:00",
  }),
  calendarEvent({
    id: "new-york",
    calendarId: "music",
    title: "Jazz",
    timeZone: "America/New_York",
    start: "2026-12-04T19:30:00-05:00",
    end: "2026-12-04T22:00:00-05:00",
  }),
];

describe("CardDates", () => {
  it("should give each event's card the line formatWhen makes, from the last build's lines when its times are the same", () => {
    const cacheDir = tempDir();
    const first = CardDates.load(cacheDir);
    for (const event of EVENTS) expect(first.when(event, "en-GB")).toBe(formatWhen(event, "en-GB"));
    first.save();

    const next = CardDates.load(cacheDir);
    const writer = new CardWriter(SITE, next.when);
    const plain = new CardWriter(SITE);
    for (const event of EVENTS) {
      expect(writer.event(event, CALENDAR, "#862e9c", null)).toEqual(
        plain.event(event, CALENDAR, "#862e9c", null),
      );
    }
    // Another language is another line, not the English one kept.
    expect(next.when(EVENTS[0] as (typeof EVENTS)[number], "nl-NL")).toBe(
      formatWhen(EVENTS[0] as (typeof EVENTS)[number], "nl-NL"),
    );
    expect(next.when(EVENTS[0] as (typeof EVENTS)[number], "nl-NL")).not.toBe(
      next.when(EVENTS[0] as (typeof EVENTS)[number], "en-GB"),
    );
  });

  it("should make the lines again, the same, when the kept file is damaged", () => {
    const cacheDir = tempDir();
    writeFileSync(join(cacheDir, "card-dates.json"), "{");
    const dates = CardDates.load(cacheDir);
    for (const event of EVENTS) expect(dates.when(event, "en-GB")).toBe(formatWhen(event, "en-GB"));
  });
});
