import { memoByKey } from "../../model/memo-by-key.ts";

/**
 * Which days a locale's week starts on and which are its weekend, for the
 * "This week", "Next week" and "This weekend" pages. Days are ISO weekday
 * numbers: 1 is Monday, 7 is Sunday.
 *
 * The rules come from the locale's CLDR week data through Intl
 * (`Intl.Locale.prototype.getWeekInfo()`, or the `weekInfo` getter that
 * older V8 versions such as Node 20's offer). Where neither exists, the
 * fallback is ISO 8601: weeks start on Monday and the weekend is Saturday
 * and Sunday, which is what most of Europe, including both of the site's
 * languages' home regions, uses.
 */

export interface WeekRules {
  /** The ISO weekday a week starts on (1 Monday ... 7 Sunday). */
  readonly firstDay: number;
  /** The ISO weekdays of the weekend, ascending (Saturday and Sunday: [6, 7]). */
  readonly weekend: readonly number[];
}

export const ISO_WEEK: WeekRules = { firstDay: 1, weekend: [6, 7] };

interface WeekInfo {
  readonly firstDay?: unknown;
  readonly weekend?: unknown;
}

type LocaleWithWeekInfo = Intl.Locale & {
  readonly getWeekInfo?: () => WeekInfo;
  readonly weekInfo?: WeekInfo;
};

/** The week rules of a BCP 47 tag ("en-GB", "nl", "he-IL"), read once per tag. */
export const weekRules: (tag: string) => WeekRules = memoByKey(readWeekRules);

function readWeekRules(tag: string): WeekRules {
  let info: WeekInfo | undefined;
  try {
    const locale = new Intl.Locale(tag) as LocaleWithWeekInfo;
    info = typeof locale.getWeekInfo === "function" ? locale.getWeekInfo() : locale.weekInfo;
  } catch {
    info = undefined;
  }
  return fromWeekInfo(info);
}

/** Week data as Intl gives it, checked; anything unusable falls back to ISO 8601. */
export function fromWeekInfo(info: WeekInfo | undefined): WeekRules {
  const isDay = (day: unknown): day is number =>
    typeof day === "number" && Number.isInteger(day) && day >= 1 && day <= 7;
  const firstDay = isDay(info?.firstDay) ? info.firstDay : ISO_WEEK.firstDay;
  const weekend = Array.isArray(info?.weekend) ? info.weekend.filter(isDay) : [];
  return {
    firstDay,
    weekend: weekend.length ? [...new Set(weekend)].sort((a, b) => a - b) : ISO_WEEK.weekend,
  };
}
