import { describe, expect, it } from "vitest";
import { mostUpcoming, SUBSCRIBE_PAGE_LISTED } from "../../src/outputs/subscribe-listing.ts";

const item = (name: string, upcoming: number) => ({ name, upcoming: Array(upcoming).fill(0) });

describe("subscribe-listing", () => {
  it("should list a bounded number of a site's 5,000 places, the busiest, in the site's order", () => {
    const places = Array.from({ length: 5_000 }, (_, index) =>
      item(`place ${String(index).padStart(4, "0")}`, index % 7),
    );
    const { shown, total } = mostUpcoming(places);
    expect(shown).toHaveLength(SUBSCRIBE_PAGE_LISTED);
    // Places with no upcoming events are not worth subscribing to from the list.
    expect(total).toBe(places.filter((place) => place.upcoming.length > 0).length);
    expect(shown.every((place) => place.upcoming.length === 6)).toBe(true);
    const names = shown.map((place) => place.name);
    expect(names).toEqual([...names].sort());
  });

  it("should list every place with upcoming events when there are few", () => {
    const { shown, total } = mostUpcoming([item("a", 1), item("b", 0), item("c", 3)]);
    expect(shown.map((place) => place.name)).toEqual(["a", "c"]);
    expect(total).toBe(2);
  });
});
