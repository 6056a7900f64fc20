import { describe, expect, it } from "vitest";
import { findLink, parseLinkHeader } from "../../src/api/link-header.ts";

const base = new URL("https://portal.example.org/v1/event-calendars?limit=50");

describe("parseLinkHeader", () => {
  it("should split links on commas outside brackets and quotes (RFC 8288 section 3)", () => {
    const links = parseLinkHeader(
      '<https://x.org/a?x=1,2>; rel="next"; title="Page, two", </b>; REL=prev; title*=UTF-8\'de\'n%c3%a4chstes',
    );
    expect(links).toEqual([
      { target: "https://x.org/a?x=1,2", params: { rel: "next", title: "Page, two" } },
      { target: "/b", params: { rel: "prev", "title*": "UTF-8'de'n%c3%a4chstes" } },
    ]);
  });
});

describe("findLink", () => {
  it("should find rel=next among several relation types, case-insensitively", () => {
    const next = findLink(
      '<?cursor=abc>; rel="last"; , <?cursor=def>; rel="NEXT last"',
      "next",
      base,
    );
    expect(next?.href).toBe("https://portal.example.org/v1/event-calendars?cursor=def");
  });

  it("should return null without a next link", () => {
    expect(findLink('<https://x.org/p1>; rel="prev"', "next", base)).toBeNull();
    expect(findLink(null, "next", base)).toBeNull();
  });
});
