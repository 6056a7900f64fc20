import { describe, expect, it } from "vitest";
import {
  type CardSite,
  CardWriter,
  cardAltText,
  clipText,
  TEXT_LIMITS,
  withoutPictographs,
} from "../../src/cards/card-content.ts";
import { readableOnPaper } from "../../src/cards/card-layout.ts";
import { messagesFor } from "../../src/i18n/messages.ts";
import type { Calendar } from "../../src/model/types.ts";
import { calendarEvent, movedTo } from "../helpers/events.ts";

const SITE: CardSite = {
  lang: "en-GB",
  title: "Buurtleven",
  description: "What is on in the neighbourhood.",
  address: "events.example.org/buurt",
};
const DUTCH: CardSite = { ...SITE, lang: "nl-NL" };

const CALENDAR: Calendar = {
  id: "music",
  name: "Music",
  description: "Concerts in the park.",
  timeZone: "Europe/Amsterdam",
  color: "#862e9c",
  updatedAt: null,
};

/** Graphemes as a reader counts characters. */
const graphemes = (text: string) => [
  ...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text),
];

describe("clipText", () => {
  it("should keep text that fits as it is, with white space collapsed", () => {
    expect(clipText("  Jazz\n in the\tpark ", 40)).toBe("Jazz in the park");
  });

  it("should cut long text at a word, with an ellipsis, within the limit", () => {
    const title = "An evening of chamber music with the city's youth orchestra and friends";
    const clipped = clipText(title, 40);
    expect(graphemes(clipped).length).toBeLessThanOrEqual(40);
    expect(clipped.endsWith("…")).toBe(true);
    // At a word boundary: what precedes the ellipsis is a whole word of the title.
    const words = clipped.slice(0, -1).split(" ");
    expect(title.split(" ").slice(0, words.length)).toEqual(words);
  });

  it("should never cut inside a character made of several code points", () => {
    // "é" as e + combining acute, repeated: a cut between the two would leave a bare accent.
    const combining = "e\u0301".repeat(50);
    const clipped = clipText(combining, 10);
    expect(graphemes(clipped)).toHaveLength(10);
    expect(clipped.startsWith("e\u0301".repeat(9))).toBe(true);
    expect(clipped.normalize("NFC")).toBe(`${"é".repeat(9)}…`);
  });

  it("should cut a single endless word too", () => {
    const clipped = clipText("x".repeat(10_000), TEXT_LIMITS.title);
    expect(graphemes(clipped)).toHaveLength(TEXT_LIMITS.title);
  });

  it("should leave out emoji, which the fonts cannot draw, and keep the symbols they can", () => {
    expect(withoutPictographs("🎉 Party 👩🏽‍💻 🇳🇱 ☀️")).toBe(" Party   ");
    expect(clipText("🎉 Café © ™ ↔ Ω Ж 1️⃣", 60)).toBe("Café © ™ ↔ Ω Ж 1");
  });
});

describe("CardWriter", () => {
  it("should give the time in the event's own zone, as the pages write it", () => {
    // 10:00 in New York is 16:00 in Amsterdam, the site's zone.
    const event = calendarEvent({
      id: "e1",
      calendarId: "music",
      title: "Jazz",
      start: "2026-04-12T10:00:00-04:00",
      end: "2026-04-12T12:00:00-04:00",
      timeZone: "America/New_York",
    });
    const card = new CardWriter(SITE).event(event, CALENDAR, "#862e9c", null);
    expect(card.lines[0]).toContain("10:00");
    expect(card.lines[0]).toContain("12:00");
    expect(card.lines[0]).not.toContain("16:00");
    expect(card.lines[0]).toMatch(/Sunday,? 12 April 2026/);
  });

  it("should write in the site's language", () => {
    const nl = messagesFor("nl");
    const event = calendarEvent({
      id: "e1",
      calendarId: "music",
      title: "Concert",
      start: "2026-04-12T20:00:00+02:00",
      end: "2026-04-12T22:00:00+02:00",
      status: "cancelled",
      attendanceMode: "online",
    });
    const writer = new CardWriter(DUTCH);
    const card = writer.event(event, CALENDAR, "#862e9c", null);
    expect(card.lang).toBe("nl-NL");
    expect(card.lines[0]).toMatch(/zondag 12 april 2026/);
    expect(card.badge).toEqual({ kind: "cancelled", text: nl.format("statusCancelled") });
    expect(card.lines[1]).toBe(nl.format("onlineEvent"));
    expect(writer.calendar(CALENDAR, "#862e9c").label).toBe(nl.format("calendarLabel"));
    expect(writer.site([]).label).toBe(nl.format("upcomingEvents"));
  });

  it("should name the place, the calendar and the organization, and clip a long title", () => {
    const event = calendarEvent({
      id: "e1",
      calendarId: "music",
      title: `Open air ${"very ".repeat(60)}long night`,
      start: "2026-04-12T20:00:00+02:00",
      end: "2026-04-12T22:00:00+02:00",
      attendanceMode: "mixed",
      location: { name: "Vondelpark", address: null, geo: null },
    });
    const card = new CardWriter(SITE).event(event, CALENDAR, "#862e9c", null);
    expect(card.label).toBe("Music");
    expect(card.footer).toBe("Buurtleven");
    expect(card.lines[1]).toBe(`Vondelpark · ${messagesFor("en").format("hybridEvent")}`);
    expect(graphemes(card.title).length).toBeLessThanOrEqual(TEXT_LIMITS.title);
    expect(card.title.endsWith("…")).toBe(true);
    expect(card.colors).toEqual(["#862e9c"]);
    // What the card says, in reading order, for the image's alt text.
    expect(cardAltText(card)).toBe(
      ["Music", card.title, card.lines[0], card.lines[1], "Buurtleven"].join(" · "),
    );
  });

  it("should say where a moved event went, as its page does", () => {
    const event = movedTo(
      calendarEvent({
        id: "e1",
        calendarId: "music",
        title: "Concert",
        start: "2026-04-12T20:00:00+02:00",
        end: "2026-04-12T22:00:00+02:00",
      }),
      "culture",
      "Culture",
    );
    const card = new CardWriter(SITE).event(event, CALENDAR, "#862e9c", null);
    expect(card.badge).toEqual({ kind: "moved", text: "Moved to Culture" });
  });

  it("should sign the site's own card with its address rather than its name again", () => {
    const card = new CardWriter(SITE).site(["#862e9c", "#0b7285"]);
    expect(card.title).toBe("Buurtleven");
    expect(card.footer).toBe("events.example.org/buurt");
    expect(card.lines).toEqual([SITE.description]);
  });
});

describe("readableOnPaper", () => {
  it("should keep a calendar colour that reads on white and replace a pale one", () => {
    expect(readableOnPaper("#862e9c")).toBe("#862e9c");
    expect(readableOnPaper("#ffd43b")).not.toBe("#ffd43b");
    expect(readableOnPaper("not a colour")).not.toBe("not a colour");
  });
});
