import { messagesFor, translate } from "../i18n/messages.ts";
import type { SeriesRule } from "./series-rule.ts";

/**
 * A series rule as a visitor reads it, in the site's language:
 * "Every Thursday, 19:30", "Every other Tuesday, 19:00", "Every last Friday
 * of the month, 20:30"; in Dutch "Elke donderdag om 19:30". The words come
 * from the locale files (src/i18n/locales), weekday names and the time from
 * Intl in the full language tag (en-US writes "7:30 PM").
 */
export function describeSeriesRule(rule: SeriesRule, lang: string): string {
  const messages = messagesFor(lang);
  const weekday = weekdayName(rule.weekday, lang);
  const text =
    rule.kind === "weekly"
      ? translate(messages, rule.interval === 1 ? "seriesEveryWeek" : "seriesEveryOtherWeek", {
          weekday,
        })
      : translate(messages, "seriesEveryMonth", {
          weekday,
          ordinal: translate(
            messages,
            rule.ordinal === -1 ? "seriesLast" : `seriesNth${rule.ordinal}`,
          ),
        });
  return rule.time === null
    ? text
    : translate(messages, "seriesRuleAt", { rule: text, time: timeText(rule.time, lang) });
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(lang, { ...options, timeZone: "UTC" });
    formats.set(key, found);
  }
  return found;
}

/** ISO weekday (1 = Monday) as a word: "Thursday", "donderdag". */
function weekdayName(weekday: number, lang: string): string {
  // 2024-01-01 was a Monday.
  return format(lang, { weekday: "long" }).format(Date.UTC(2024, 0, weekday));
}

/** "19:30" as the language writes a time of day. */
function timeText(time: string, lang: string): string {
  const [hour = 0, minute = 0] = time.split(":").map(Number);
  return format(lang, { hour: "2-digit", minute: "2-digit" }).format(
    Date.UTC(2024, 0, 1, hour, minute),
  );
}
