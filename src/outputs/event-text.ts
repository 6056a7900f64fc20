import type { DateTime } from "luxon";
import { messagesFor, translate } from "../i18n/messages.ts";
import { type EventTimes, sameLocalDay } from "../model/event-times.ts";
import { memoByKey } from "../model/memo-by-key.ts";
import type { CalendarEvent, EventStatus } from "../model/types.ts";

/**
 * Plain-text "when" and "where" lines shared by the feeds, the iCalendar
 * DESCRIPTION and the add-to-calendar links, so every output describes an
 * event the same way. Dates are formatted in the EVENT's zone (not the site's
 * or the build machine's) and the zone is always named, because a reader in
 * another zone must not guess which clock "19:30" refers to.
 */

export interface EventTextLabels {
  readonly when: string;
  readonly where: string;
  readonly online: string;
  readonly allDay: string;
  readonly cancelled: string;
  readonly postponed: string;
  readonly registration: string;
  readonly moreInfo: string;
  readonly organizer: string;
}

/** Labels of the plain-text lines, from the site's UI strings (src/i18n); built once per language. */
export const eventTextLabels: (lang: string) => EventTextLabels = memoByKey(readLabels);

function readLabels(lang: string): EventTextLabels {
  const m = messagesFor(lang);
  const text = (key: string) => translate(m, key);
  return {
    when: text("when"),
    where: text("where"),
    online: text("online"),
    allDay: text("allDayLower"),
    cancelled: text("statusCancelled"),
    postponed: text("statusPostponed"),
    registration: text("registration"),
    moreInfo: text("more"),
    organizer: text("organizer"),
  };
}

/** "Sun 29 Mar 2026" in the site language, on the event's calendar day. */
export function formatEventDate(start: DateTime, lang: string): string {
  // Every event of a day shows the same label, and Luxon's localized tokens
  // cost a Locale and an Intl call each time: kept per language and day.
  const key = `${lang}|${start.year}-${start.month}-${start.day}`;
  let label = dateLabels.get(key);
  if (label === undefined) {
    label = start.setLocale(lang).toFormat("ccc d LLL yyyy");
    dateLabels.set(key, label);
  }
  return label;
}

const dateLabels = new Map<string, string>();

/** "09:05": the wall-clock time of day, as Luxon's "HH:mm" writes it in Latin digits. */
function timeOfDay(time: DateTime): string {
  return `${String(time.hour).padStart(2, "0")}:${String(time.minute).padStart(2, "0")}`;
}

/**
 * "Sun 29 Mar 2026, 01:30 – 04:00 (Europe/Amsterdam)";
 * "Mon 27 Apr 2026 (all day)"; "Fri 15 May 2026 – Sun 17 May 2026 (all day)".
 * All-day ends are exclusive, so the last day shown is the day before `end`.
 */
export function formatWhen(event: CalendarEvent, times: EventTimes, lang: string): string {
  const labels = eventTextLabels(lang);
  const { start, end, lastDay } = times;
  if (event.allDay) {
    const range = sameLocalDay(lastDay, start)
      ? formatEventDate(start, lang)
      : `${formatEventDate(start, lang)} – ${formatEventDate(lastDay, lang)}`;
    return `${range} (${labels.allDay})`;
  }
  const day = formatEventDate(start, lang);
  const from = timeOfDay(start);
  const zone = `(${event.timeZone})`;
  if (+end === +start) return `${day}, ${from} ${zone}`;
  if (sameLocalDay(end, start)) return `${day}, ${from} – ${timeOfDay(end)} ${zone}`;
  return `${day}, ${from} – ${formatEventDate(end, lang)}, ${timeOfDay(end)} ${zone}`;
}

/** Place name and address on one line, or null for a purely online event. */
export function formatPlace(event: CalendarEvent): string | null {
  const place = event.location;
  if (!place) return null;
  const parts = [place.name, place.address?.formatted].filter(
    (part): part is string => typeof part === "string" && part.trim() !== "",
  );
  // The formatted address often repeats the name ("Town Hall, Town Hall, ...").
  const unique = parts.filter((part, index) => parts.indexOf(part) === index);
  return unique.length > 0 ? unique.join(", ") : null;
}

/** Status word for events that are not simply scheduled. */
export function statusLabel(status: EventStatus, lang: string): string | null {
  const labels = eventTextLabels(lang);
  if (status === "cancelled") return labels.cancelled;
  if (status === "postponed") return labels.postponed;
  return null;
}

/**
 * Collapses characters that must not reach single-line fields (titles,
 * locations): control characters and Unicode line/paragraph separators become
 * spaces, runs of whitespace one space.
 */
export function singleLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Keeps line breaks (normalized to "\n") but drops other control characters,
 * which are invalid in iCalendar TEXT (RFC 5545 3.3.11) and in XML 1.0.
 */
export function multiLine(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\t/g, " ")
    .replace(/(?!\n)\p{Cc}/gu, "")
    .replace(/[ ]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
