import { describe, expect, it } from "vitest";
import { encodeIdSegment, paths } from "../../src/model/url-scheme.ts";

describe("encodeIdSegment", () => {
  it("should keep plain lowercase ids readable", () => {
    expect(encodeIdSegment("community")).toBe("community");
    expect(encodeIdSegment("e-1042")).toBe("e-1042");
  });

  it("should turn every other id into one safe path segment", () => {
    const hostile = [
      "../../etc/passwd",
      "..%2F..",
      "",
      ".",
      "..",
      "a/b",
      "a\\b",
      "CON",
      "Événement",
      "x".repeat(500),
      "<script>",
      "ümlaut ",
      "a?b#c",
    ];
    for (const id of hostile) {
      const segment = encodeIdSegment(id);
      expect(segment, id).toMatch(/^[a-z0-9_-]{1,80}$/);
      expect(segment, id).not.toMatch(/^\.+$/);
    }
  });

  it("should keep distinct ids distinct, also on case-insensitive file systems", () => {
    const ids = [
      "abc",
      "ABC",
      "Abc",
      "_616263",
      "a b",
      "a_b",
      "a-b",
      "x".repeat(40),
      "x".repeat(41),
      "ü",
      "u",
    ];
    const segments = ids.map(encodeIdSegment);
    expect(new Set(segments.map((s) => s.toLowerCase())).size).toBe(ids.length);
  });

  it("should be stable across calls, so links and subscriptions survive rebuilds", () => {
    expect(encodeIdSegment("Summer Fest 2026")).toBe(encodeIdSegment("Summer Fest 2026"));
  });
});

describe("paths", () => {
  it("should build id-based site paths", () => {
    expect(paths.event("community", "e1")).toBe("/calendars/community/events/e1/");
    expect(paths.calendarMonth("community", 2026, 3)).toBe("/calendars/community/2026/03/");
    expect(paths.category("Music")).toBe(`/categories/${encodeIdSegment("Music")}/`);
  });

  it("should give the widget of several calendars a folder no calendar can have", () => {
    const ids = ["all", "_all", "ALL", "_", "", "Äll", "x".repeat(300)];
    for (const id of ids) expect(paths.embed(id), id).not.toBe(paths.embedCalendars());
    expect(paths.embedCalendars()).toBe("/embed/_all/");
  });

  it("should put an event's card in its calendar's embed folder, and its oEmbed answer beside the calendar's", () => {
    expect(paths.embedEvent("community", "Weird/ID")).toBe(
      `/embed/community/events/${encodeIdSegment("Weird/ID")}/`,
    );
    expect(paths.embedEvent("culture", "e1").startsWith(paths.embed("culture"))).toBe(true);
    expect(paths.oembedEvent("culture", "e1")).toBe("/oembed/culture/events/e1.json");
  });
});
