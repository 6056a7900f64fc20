import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  DIGEST_FEED_WEEKS,
  digestWeekday,
  digestWeeks,
  latestDigestWeek,
} from "../../src/digest/digest-week.ts";
import { NOW_DATETIME } from "../helpers/clock.ts";

/** The settings the weeks read; NOW is Friday 20 March 2026, 13:00 in Amsterdam. */
const site = {
  now: NOW_DATETIME,
  timeZone: "Europe/Amsterdam",
  lang: "en-GB",
  digestDay: null as number | null,
};
const at = (iso: string) => ({ ...site, now: DateTime.fromISO(iso, { zone: "utc" }) });

describe("digest-week", () => {
  it("should bring out a week's digest the day before the week starts in the site's language, by default", () => {
    expect(digestWeekday(site)).toBe(7);
    expect(digestWeekday({ ...site, lang: "nl" })).toBe(7);
    // en-US weeks start on Sunday: the digest comes out on Saturday.
    expect(digestWeekday({ ...site, lang: "en-US" })).toBe(6);
    expect(digestWeekday({ ...site, digestDay: 1 })).toBe(1);
  });

  it("should make the week that came out last Sunday the latest, at midnight in the site's zone", () => {
    expect(latestDigestWeek(site)).toEqual({
      first: "2026-03-16",
      last: "2026-03-22",
      publishedOn: "2026-03-15",
      publishedAt: "2026-03-14T23:00:00Z",
    });
  });

  it("should keep the same latest week at every hour until the next one comes out", () => {
    const before = [
      "2026-03-14T23:00:00Z", // Sunday 15 March, 00:00 in Amsterdam
      "2026-03-18T06:30:00Z",
      "2026-03-21T22:59:59Z", // Saturday 21 March, 23:59:59
    ].map((iso) => latestDigestWeek(at(iso)).first);
    expect(before).toEqual(["2026-03-16", "2026-03-16", "2026-03-16"]);
    // Sunday 22 March, midnight in Amsterdam: the next week's digest is out.
    expect(latestDigestWeek(at("2026-03-21T23:00:00Z"))).toMatchObject({
      first: "2026-03-23",
      publishedOn: "2026-03-22",
      publishedAt: "2026-03-21T23:00:00Z",
    });
  });

  it("should bring a digest out at local midnight across a clock change", () => {
    // Amsterdam moves to summer time on Sunday 29 March at 02:00; Sunday 5 April is in summer time.
    expect(latestDigestWeek(at("2026-04-05T08:00:00Z")).publishedAt).toBe("2026-04-04T22:00:00Z");
    expect(latestDigestWeek(at("2026-03-29T08:00:00Z")).publishedAt).toBe("2026-03-28T23:00:00Z");
  });

  it("should follow DIGEST_DAY and the locale's first day", () => {
    // On the week's first day: the digest of the week that starts that day.
    expect(latestDigestWeek({ ...site, digestDay: 1 })).toMatchObject({
      first: "2026-03-16",
      publishedOn: "2026-03-16",
    });
    // On Friday: the next week's, out since this Friday.
    expect(latestDigestWeek({ ...site, digestDay: 5 })).toMatchObject({
      first: "2026-03-23",
      publishedOn: "2026-03-20",
    });
    // en-US: Sunday weeks, out on Saturday.
    expect(latestDigestWeek({ ...site, lang: "en-US" })).toMatchObject({
      first: "2026-03-15",
      last: "2026-03-21",
      publishedOn: "2026-03-14",
    });
  });

  it("should list the latest week and the three before it, newest first", () => {
    const weeks = digestWeeks(site);
    expect(weeks).toHaveLength(DIGEST_FEED_WEEKS);
    expect(weeks.map((week) => week.first)).toEqual([
      "2026-03-16",
      "2026-03-09",
      "2026-03-02",
      "2026-02-23",
    ]);
    expect(weeks.map((week) => week.publishedAt)).toEqual([
      "2026-03-14T23:00:00Z",
      "2026-03-07T23:00:00Z",
      "2026-02-28T23:00:00Z",
      "2026-02-21T23:00:00Z",
    ]);
  });
});
