import { describe, expect, it } from "vitest";
import { CHANGED_PAGES_LIMIT, changedPages } from "../../src/publish/changed-pages.ts";

const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe("changed-pages", () => {
  it("should list the pages added, changed and removed, and no other file", () => {
    const before = files({
      "index.html": "a",
      "calendars/culture/index.html": "b",
      "calendars/culture/events/old/index.html": "c",
      "calendars/culture/events/same/index.html": "d",
      "feed.xml": "e",
    });
    const after = files({
      "index.html": "a2",
      "calendars/culture/index.html": "b",
      "calendars/culture/events/same/index.html": "d",
      "calendars/culture/events/new/index.html": "f",
      "embed/culture/index.html": "g",
      "feed.xml": "e2",
      "404.html": "h",
    });
    expect(changedPages(before, after)).toEqual({
      paths: ["/", "/calendars/culture/events/new/", "/calendars/culture/events/old/"],
      total: 3,
    });
  });

  it("should keep at most the limit, the shallowest pages first", () => {
    const after = new Map<string, string>([
      ["index.html", "x"],
      ["places/index.html", "x"],
    ]);
    for (let index = 0; index < CHANGED_PAGES_LIMIT + 10; index++) {
      after.set(`calendars/c/events/e${String(index).padStart(5, "0")}/index.html`, "x");
    }
    const { paths, total } = changedPages(new Map(), after);
    expect(total).toBe(CHANGED_PAGES_LIMIT + 12);
    expect(paths).toHaveLength(CHANGED_PAGES_LIMIT);
    expect(paths.slice(0, 2)).toEqual(["/", "/places/"]);
  });
});
