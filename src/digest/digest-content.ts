import type { Announcement } from "../changes/published-state.ts";
import type { SiteConfig } from "../config/site.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import { cutText } from "../model/cut-text.ts";
import { endMillis } from "../model/event-times.ts";
import type { CalendarEvent } from "../model/types.ts";
import { type DigestScope, digestFiles, paths } from "../model/url-scheme.ts";
import { formatPlace, singleLine, statusLabel } from "../outputs/event-text.ts";
import { announcementEntry } from "../outputs/feeds-announcements.ts";
import { formatListTime, formatWhen } from "../site/format.ts";
import { eventDays } from "../site/when/event-days.ts";
import { addDays } from "../site/when/ranges.ts";
import { digestDayLabel, digestWeekLabel } from "./digest-dates.ts";
import type { DigestWeek } from "./digest-week.ts";

/**
 * What one digest says: one scope's week, as plain data that its three
 * writers (RSS, the mail's HTML and its text) render, made only for a scope
 * whose files are rendered (their inputs are what it is made from,
 * Digests.inputs in digests.ts): its events day by day, the
 * events new since the digest before it, and the changes announced since
 * (src/changes, docs/feeds.md "Changes"). Every text is cut and every count
 * bounded here, so a week of thousands of events, or a hostile record,
 * makes a digest of bounded size; past the limits a list says how many more
 * there are and links to them on the site.
 */

/** One event (or change) as a digest lists it. */
export interface DigestLine {
  /** Plain text: its title, or a change's headline ("Cancelled: …"). */
  readonly title: string;
  /** Absolute: the event's page. */
  readonly url: string;
  /** "19:30–21:00", "All day"; a whole date and time for an event of another week; "" for a change. */
  readonly when: string;
  readonly place: string | null;
  /** "Cancelled", "Postponed", or null. */
  readonly status: string | null;
  /** A new event's picture (absolute URL, text alternative); null for every other line. */
  readonly image: { readonly url: string; readonly alt: string } | null;
}

export interface DigestList {
  /** "Monday 23 March", "New since last week". */
  readonly heading: string;
  readonly lines: readonly DigestLine[];
  /** How many more the list has than it shows. */
  readonly more: number;
  /** Absolute: where the site shows them all. */
  readonly moreUrl: string;
}

export interface Digest {
  readonly lang: string;
  readonly week: DigestWeek;
  /** The mail's subject, the feed item's title: "Events next week: 23–29 March". */
  readonly subject: string;
  /** "12 events from Monday 23 March to Sunday 29 March." */
  readonly intro: string;
  /** The site's title, and the scope's name (null for the whole site). */
  readonly siteTitle: string;
  readonly scopeName: string | null;
  /** Absolute URLs: the site's home, the week on the site, the digest's feed, the subscribe page. */
  readonly homeUrl: string;
  readonly weekUrl: string;
  readonly feedUrl: string;
  readonly followUrl: string;
  /** The week's days with events, then "New since last week", then "Changes since last week". */
  readonly sections: readonly DigestList[];
  /** The texts the writers add: the footer's ("and 3 more on the site" is moreText's). */
  readonly labels: DigestLabels;
}

export interface DigestLabels {
  readonly wholeWeek: string;
  readonly footer: string;
  readonly follow: string;
  /** For the sender's link to the list's unsubscribe address (digest-markers.ts). */
  readonly unsubscribe: string;
}

/**
 * How much a digest shows: a day's first ten events (seventy in a week),
 * ten new events and ten changes. A reader takes in a week at a glance, and
 * it keeps the mail under Gmail's clipping size with room to spare; the
 * writers halve these further for a week whose texts are unusually long
 * (digest-budget.ts).
 */
export const DIGEST_LIMITS = { perDay: 10, fresh: 10, changes: 10 } as const;

/** Texts longer than this are cut in a digest: the event's page has them whole. */
const TITLE_MAX = 150;
const PLACE_MAX = 150;

export type DigestSite = Pick<
  SiteConfig,
  "url" | "urls" | "title" | "lang" | "timeZone" | "now" | "digestDay"
>;

/** What one digest is made from: the events and announcements of its scope, already picked. */
export interface DigestSource {
  readonly scope: DigestScope;
  readonly week: DigestWeek;
  /** The scope's events on a day of the week, in the site's order (by start). */
  readonly events: readonly CalendarEvent[];
  /** The scope's events created in the seven days before the week's digest came out, by start. */
  readonly created: readonly CalendarEvent[];
  /** The scope's announcements, newest first. */
  readonly announcements: readonly Announcement[];
}

const WEEK_MS = 7 * 86_400_000;

/** The seven days before a week's digest came out: what it calls "since last week" (ms, end excluded). */
export function sinceLastWeek(week: DigestWeek): { readonly from: number; readonly until: number } {
  const until = Date.parse(week.publishedAt);
  return { from: until - WEEK_MS, until };
}

export function digestOf(source: DigestSource, site: DigestSite): Digest {
  const { scope, week } = source;
  const messages = messagesFor(site.lang);
  const t = (key: string, values?: Record<string, unknown>) => translate(messages, key, values);
  const filter = scopeFilter(scope);
  const absolute = (path: string) => site.urls.absolute(path);
  const range = (from: string, to: string) =>
    absolute(paths.search({ ...filter, when: "range", from, to }));

  const days = eventsByDay(source.events, week, site.timeZone);
  const total = days.reduce((sum, day) => sum + day.events.length, 0);
  const sections: DigestList[] = days.map(({ date, events }) => ({
    heading: digestDayLabel(date, site.lang),
    lines: events.slice(0, DIGEST_LIMITS.perDay).map((event) => dayLine(event, site, t)),
    more: Math.max(0, events.length - DIGEST_LIMITS.perDay),
    moreUrl: range(date, date),
  }));
  const { from, until } = sinceLastWeek(week);
  const fresh = source.created.filter(
    (event) => event.status !== "cancelled" && endMillis(event) > until,
  );
  if (fresh.length > 0) {
    sections.push({
      heading: t("digestNew"),
      lines: fresh.slice(0, DIGEST_LIMITS.fresh).map((event) => newLine(event, site, t)),
      more: Math.max(0, fresh.length - DIGEST_LIMITS.fresh),
      moreUrl: absolute(scopePage(scope)),
    });
  }
  const changes = source.announcements.filter((a) => {
    const at = Date.parse(a.at);
    return at >= from && at < until;
  });
  if (changes.length > 0) {
    sections.push({
      heading: t("digestChanges"),
      lines: changes.slice(0, DIGEST_LIMITS.changes).map((a) => changeLine(a, site.lang)),
      more: Math.max(0, changes.length - DIGEST_LIMITS.changes),
      moreUrl: absolute(scopePage(scope)),
    });
  }

  const label = digestWeekLabel(week.first, week.last, site.lang);
  const subject = t(
    week.publishedOn === week.first ? "digestSubjectThisWeek" : "digestSubjectNextWeek",
    { range: label },
  );
  const scopeName = scope.kind === "site" ? null : singleLine(scope.name);
  return {
    lang: site.lang,
    week,
    subject: scopeName ? `${scopeName} · ${subject}` : subject,
    intro: t("digestCount", {
      count: total,
      from: digestDayLabel(week.first, site.lang),
      to: digestDayLabel(week.last, site.lang),
    }),
    siteTitle: singleLine(site.title),
    scopeName,
    homeUrl: absolute(paths.home()),
    weekUrl: range(week.first, addDays(week.first, 6)),
    feedUrl: absolute(digestFiles(scope).rss),
    followUrl: absolute(paths.subscribe()),
    sections,
    labels: {
      wholeWeek: t("digestWholeWeek"),
      footer: t("digestFooter", { site: singleLine(site.title) }),
      follow: t("digestFollow"),
      unsubscribe: t("digestUnsubscribe"),
    },
  };
}

/** "and 3 more on the site". */
export function moreText(list: DigestList, lang: string): string {
  return translate(messagesFor(lang), "digestMore", { count: list.more });
}

interface DayEvents {
  readonly date: string;
  readonly events: CalendarEvent[];
}

/**
 * The week's days that have events, each with those on it in the site's
 * zone (src/site/when/event-days.ts, the "when" pages' rule); an event on
 * several days is listed once, under the first of them in the week.
 */
function eventsByDay(
  events: readonly CalendarEvent[],
  week: DigestWeek,
  zone: string,
): DayEvents[] {
  const byDate = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    const days = eventDays(event, zone);
    if (days.first > week.last || days.last < week.first) continue;
    const date = days.first < week.first ? week.first : days.first;
    const list = byDate.get(date);
    if (list) list.push(event);
    else byDate.set(date, [event]);
  }
  return [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, list]) => ({ date, events: list }));
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A day's line: its time of day in its own zone (named when it is not the site's). */
function dayLine(event: CalendarEvent, site: DigestSite, t: Translate): DigestLine {
  return {
    ...lineOf(event, site, t),
    when: event.allDay ? t("allDay") : formatListTime(event, site.lang, site.timeZone),
  };
}

/** A new event's line: any date ahead, so its whole date and time, and its picture. */
function newLine(event: CalendarEvent, site: DigestSite, t: Translate): DigestLine {
  const image = event.image;
  return {
    ...lineOf(event, site, t),
    when: formatWhen(event, site.lang),
    image: image
      ? { url: image.url, alt: cutText(singleLine(image.alt || event.title), TITLE_MAX) }
      : null,
  };
}

function lineOf(event: CalendarEvent, site: DigestSite, t: Translate): DigestLine {
  const place = formatPlace(event) ?? (event.onlineUrl ? t("online") : null);
  return {
    title: cutText(singleLine(event.title), TITLE_MAX),
    url: site.urls.absolute(paths.event(event.calendarId, event.id)),
    when: "",
    place: place === null ? null : cutText(singleLine(place), PLACE_MAX),
    status: statusLabel(event.status, site.lang),
    image: null,
  };
}

/** A change's line: its headline, as its feed item's title says it (feeds-announcements.ts). */
function changeLine(announcement: Announcement, lang: string): DigestLine {
  const entry = announcementEntry(announcement, lang);
  return {
    title: cutText(singleLine(entry.title), TITLE_MAX * 2),
    url: entry.url,
    when: "",
    place: null,
    status: null,
    image: null,
  };
}

/** The search's filter for a scope's events (docs/site.md, "Search and filters"). */
function scopeFilter(scope: DigestScope): Record<string, string> {
  if (scope.kind === "calendar") return { calendar: scope.id };
  if (scope.kind === "category") return { category: scope.id };
  return {};
}

function scopePage(scope: DigestScope): string {
  if (scope.kind === "calendar") return paths.calendar(scope.id);
  if (scope.kind === "category") return paths.category(scope.id);
  return paths.events();
}
