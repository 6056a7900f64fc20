import { describe, expect, it } from "vitest";
import { firstDataDifference, shardData } from "../../src/shards/shard-data.ts";
import type { SiteData } from "../../src/site/load.ts";
import { calendarEvent } from "../helpers/events.ts";

/*
 * The data every shard of a split build must share (src/shards/shard-data.ts),
 * and the first item where two shards' differ, which merge-shards names.
 */

type Data = Pick<SiteData, "calendars" | "events" | "media" | "removed">;

const event = (id: string, title = `Event ${id}`) =>
  calendarEvent({
    id,
    calendarId: "c",
    title,
    start: "2026-03-20T19:00:00+01:00",
    end: "2026-03-20T21:00:00+01:00",
  });
const base: Data = {
  calendars: [],
  events: [event("1"), event("2"), event("3")],
  media: [{ path: "/media/a.svg", cachePath: "/cache/one/a.svg" }],
  removed: [event("0")],
};
const differenceFrom = (other: Partial<Data>) =>
  firstDataDifference(shardData({ ...base, ...other }), shardData(base));

describe("shard-data", () => {
  it("should be the same for the same data, wherever its images are cached", () => {
    expect(differenceFrom({})).toBeNull();
    expect(
      differenceFrom({ media: [{ path: "/media/a.svg", cachePath: "/other/a.svg" }] }),
    ).toBeNull();
  });

  it("should name the first event that differs, and which shard has it", () => {
    expect(differenceFrom({ events: [event("1"), event("2", "Renamed"), event("3")] })).toEqual({
      part: "events",
      id: "c/2",
      in: "both",
    });
    expect(differenceFrom({ events: [event("1"), event("3")] })).toEqual({
      part: "events",
      id: "c/2",
      in: "other",
    });
    expect(differenceFrom({ events: [event("1"), event("1b"), event("2"), event("3")] })).toEqual({
      part: "events",
      id: "c/1b",
      in: "one",
    });
    expect(differenceFrom({ events: [event("2"), event("1"), event("3")] })).toEqual({
      part: "events",
      id: "c/2",
      in: "both",
    });
  });

  it("should name a differing image or removed event when the events agree", () => {
    expect(differenceFrom({ media: [] })).toEqual({
      part: "images",
      id: "/media/a.svg",
      in: "other",
    });
    expect(differenceFrom({ removed: [] })).toEqual({ part: "removed", id: "c/0", in: "other" });
  });
});
