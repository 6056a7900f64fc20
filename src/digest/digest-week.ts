import { DateTime } from "luxon";
import type { SiteConfig } from "../config/site.ts";
import { timeZone } from "../model/time-zone.ts";
import { addDays, isoWeekday } from "../site/when/ranges.ts";
import { weekRules } from "../site/when/week-rules.ts";

/**
 * Which weeks the digest tells of, and when each comes out (docs/followers.md,
 * "Weekly email digest"). A week starts on the first day of the site
 * language's week (CLDR, src/site/when/week-rules.ts) at midnight in
 * SITE_TIMEZONE, for every scope, so one week has one key everywhere.
 *
 * A week's digest comes out at midnight (SITE_TIMEZONE) of the last
 * DIGEST_DAY on or before the week's first day: by default the day before
 * the week starts (Sunday for en-GB and nl, Saturday for en-US), so a mail
 * sent that day, by `npm run send-digest` or an RSS-to-email service,
 * reaches readers before the week begins. From then until the next one
 * comes out it is the latest digest; it depends on the date only, never on
 * the hour, so every build of those seven days agrees on it (and the daily
 * rebuild the site already makes at midnight publishes the next one).
 */

export interface DigestWeek {
  /** The week's first and last dates (yyyy-mm-dd, SITE_TIMEZONE). */
  readonly first: string;
  readonly last: string;
  /** The date it comes out (yyyy-mm-dd): DIGEST_DAY, on or before `first`. */
  readonly publishedOn: string;
  /** Midnight of `publishedOn` in SITE_TIMEZONE, as an ISO instant in UTC: its feed item's date. */
  readonly publishedAt: string;
}

/**
 * The digests a feed keeps: the latest and the three before it, four weeks
 * in all. A service that polls weekly, or missed a beat, still finds the
 * week it has not sent (RSS-to-email services send an item once, by its
 * guid); older weeks are of no use to anyone and only grow the feed.
 */
export const DIGEST_FEED_WEEKS = 4;

export type DigestWeekSite = Pick<SiteConfig, "now" | "timeZone" | "lang" | "digestDay">;

/** The ISO weekday the digest comes out: DIGEST_DAY, else the day before the week starts. */
export function digestWeekday(site: Pick<SiteConfig, "lang" | "digestDay">): number {
  if (site.digestDay !== null) return site.digestDay;
  const { firstDay } = weekRules(site.lang);
  return firstDay === 1 ? 7 : firstDay - 1;
}

/** The latest digest at the site's "now" and the `count - 1` weeks before it, newest first. */
export function digestWeeks(site: DigestWeekSite, count = DIGEST_FEED_WEEKS): DigestWeek[] {
  const latest = latestDigestWeek(site);
  const weeks: DigestWeek[] = [latest];
  for (let i = 1; i < count; i++) {
    weeks.push(weekStartingOn(addDays(latest.first, -7 * i), site));
  }
  return weeks;
}

/** The digest that came out last, at the site's "now": the one a mail sent now carries. */
export function latestDigestWeek(site: DigestWeekSite): DigestWeek {
  const today = site.now.setZone(timeZone(site.timeZone)).toISODate() ?? "";
  const { firstDay } = weekRules(site.lang);
  // A week comes out `lead` days before it starts: the week starting on or
  // before today + lead is the newest that has come out.
  const lead = (firstDay - digestWeekday(site) + 7) % 7;
  const ahead = addDays(today, lead);
  const first = addDays(ahead, -((isoWeekday(ahead) - firstDay + 7) % 7));
  return weekStartingOn(first, site);
}

function weekStartingOn(first: string, site: DigestWeekSite): DigestWeek {
  const { firstDay } = weekRules(site.lang);
  const lead = (firstDay - digestWeekday(site) + 7) % 7;
  const publishedOn = addDays(first, -lead);
  const midnight = DateTime.fromISO(publishedOn, { zone: timeZone(site.timeZone) }).startOf("day");
  return {
    first,
    last: addDays(first, 6),
    publishedOn,
    publishedAt: midnight.toUTC().toISO({ suppressMilliseconds: true }) ?? "",
  };
}
