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
});
