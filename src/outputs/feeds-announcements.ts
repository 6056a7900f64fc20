import type { DateTime } from "luxon";
import type { Announcement } from "../changes/published-state.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import { eventTimes, sameLocalDay } from "../model/event-times.ts";
import { escapeHtml } from "../model/sanitize.ts";
import type { CalendarEvent } from "../model/types.ts";
import type { FeedScope } from "../model/url-scheme.ts";
import { eventTextLabels, formatWhen, singleLine } from "./event-text.ts";
import type { FeedEntry } from "./feeds-entry.ts";

/**
 * Change announcements as feed items (docs/feeds.md, "Changes"): a new date,
 * a cancellation, a postponement or a reinstatement gets an item of its own,
 * with its own id and dated at the change, so feed readers show it as news;
 * the event's own item stays and is updated. Titles read like a notice:
 * "New date: Open Studio Night, now Saturday 5 December 19:30 (was Friday 4 December)".
 */

/**
 * The announcements a feed of `scope` carries: those of its events, in the
 * feeds of the site, the event's calendar, its categories and its pairs
 * (and its place and series: src/outputs/feed-scopes.ts).
 */
export function announcementsInScope(
  announcements: readonly Announcement[],
  scope: FeedScope,
): readonly Announcement[] {
  if (scope.kind === "site") return announcements;
  const inCategory = (a: Announcement, id: string) => a.categories.some((c) => c.id === id);
  if (scope.kind === "calendar") return announcements.filter((a) => a.calendarId === scope.id);
  if (scope.kind === "category") return announcements.filter((a) => inCategory(a, scope.id));
  // A place's, a series' and an organization's events are known to their scopes only
  // (feed-scopes.ts picks theirs).
  if (scope.kind === "place" || scope.kind === "series" || scope.kind === "organization") return [];
  return announcements.filter(
    (a) => a.calendarId === scope.calendarId && inCategory(a, scope.categoryId),
  );
}

const entries = new WeakMap<Announcement, Map<string, FeedEntry>>();

/** One entry per announcement and language, shared by every feed that carries it. */
export function announcementEntry(announcement: Announcement, lang: string): FeedEntry {
  let byLang = entries.get(announcement);
  let entry = byLang?.get(lang);
  if (!entry) {
    entry = buildEntry(announcement, lang);
    if (!byLang) {
      byLang = new Map();
      entries.set(announcement, byLang);
    }
    byLang.set(lang, entry);
  }
  return entry;
}

function buildEntry(a: Announcement, lang: string): FeedEntry {
  const messages = messagesFor(lang);
  const labels = eventTextLabels(lang);
  const now = timesOf(a, a.start, a.end);
  const before = a.previousStart
    ? timesOf(a, a.previousStart, a.previousEnd ?? a.previousStart)
    : null;
  const title = singleLine(a.title);
  const at = new Date(a.at);
  const year = at.getUTCFullYear();
  let headline: string;
  if (a.kind === "moved" && now && before) {
    const sameDay = sameLocalDay(now.start, before.start);
    headline = translate(messages, sameDay ? "announceMovedTime" : "announceMoved", {
      title,
      when: longWhen(now.start, a.allDay, lang, year),
      was: previousWhen(before.start, now.start, a.allDay, lang, year),
    });
  } else if (now) {
    const key =
      a.kind === "cancelled"
        ? "announceCancelled"
        : a.kind === "postponed"
          ? "announcePostponed"
          : a.kind === "reinstated"
            ? "announceReinstated"
            : "announceMoved";
    headline = translate(messages, key, {
      title,
      when: longWhen(now.start, a.allDay, lang, year),
      was: "",
    });
  } else {
    headline = title;
  }

  const event = eventLike(a);
  const when = now ? formatWhen(event, now, lang) : "";
  const was = before ? formatWhen(eventLike(a), before, lang) : "";
  const link = `${a.url}#change`;
  const html = [`<p><strong>${escapeHtml(headline)}</strong></p>`];
  if (when) html.push(`<p><strong>${labels.when}:</strong> ${escapeHtml(when)}</p>`);
  if (was) {
    html.push(
      `<p><strong>${escapeHtml(translate(messages, "previously"))}:</strong> ${escapeHtml(was)}</p>`,
    );
  }
  html.push(`<p><a href="${escapeHtml(a.url)}">${escapeHtml(labels.moreInfo)}</a></p>`);
  return {
    id: a.id,
    // Its own link (the page, at the notice) keeps it apart from the event's item.
    url: link,
    title: headline,
    summary: when,
    contentHtml: html.join("\n"),
    categories: a.categories,
    image: null,
    published: at,
    updated: at,
  };
}

type Timed = Pick<CalendarEvent, "start" | "end" | "allDay" | "timeZone">;

function timesOf(a: Announcement, start: string, end: string) {
  const fields: Timed = { start, end, allDay: a.allDay, timeZone: a.timeZone };
  return eventTimes(fields);
}

/** formatWhen reads only these fields of the event. */
function eventLike(a: Announcement): CalendarEvent {
  return { allDay: a.allDay, timeZone: a.timeZone } as CalendarEvent;
}

/** "Saturday 5 December 19:30" (the year only when it is not the announcement's). */
function longWhen(start: DateTime, allDay: boolean, lang: string, year: number): string {
  const day = start
    .setLocale(lang)
    .toFormat(start.year === year ? "cccc d LLLL" : "cccc d LLLL yyyy");
  return allDay ? day : `${day} ${start.toFormat("HH:mm")}`;
}

/** The old date, with its time only when the time changed too; only the time on the same day. */
function previousWhen(
  before: DateTime,
  now: DateTime,
  allDay: boolean,
  lang: string,
  year: number,
): string {
  if (allDay) return longWhen(before, true, lang, year);
  if (sameLocalDay(before, now)) return before.toFormat("HH:mm");
  const sameTime = before.toFormat("HH:mm") === now.toFormat("HH:mm");
  return sameTime ? longWhen(before, true, lang, year) : longWhen(before, false, lang, year);
}
