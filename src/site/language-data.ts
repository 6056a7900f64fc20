import type { Announcement } from "../changes/published-state.ts";
import type { SiteConfig } from "../config/site.ts";
import { differsFrom } from "../config/site-languages.ts";
import type { CalendarEvent, EventTexts, TranslatedTexts } from "../model/types.ts";
import { type SiteData, siteViews } from "./load.ts";
import { weekRules } from "./when/week-rules.ts";

/**
 * The site's data as one of its languages publishes it (SITE_LANGUAGES,
 * docs/translating.md, "One site in several languages"). The data is made
 * once, for the first language (src/site/load.ts); each language then shows
 * the same events, at the same paths, with:
 *
 * - each event's texts in its language where the portal carries them (the
 *   field map's `title.fr`...), on a copy of the event that says which
 *   (`translated`), so that its pages leave `lang` off those texts alone;
 * - its own week: the month grids start on its first day and "This
 *   weekend" is its weekend (src/site/when/week-rules.ts);
 * - the change announcements linking its own pages.
 *
 * The views are made again only when one of these differs from the data's
 * (a language with translations, or with another week); otherwise they are
 * the data's own, and the language costs nothing here.
 */
export function siteDataIn(data: SiteData, site: SiteConfig, dataSite: SiteConfig): SiteData {
  const localize = localizer(site.lang);
  const events = data.events.map(localize);
  const removed = data.removed.map(localize);
  const translated = events.some((event, i) => event !== data.events[i]);
  const sameWeek = sameRules(weekRules(site.lang), weekRules(dataSite.lang));
  const announcements = localAnnouncements(data.announcements, events, site, dataSite);
  if (!translated && sameWeek) {
    return announcements === data.announcements ? data : { ...data, announcements };
  }
  return {
    ...data,
    events,
    removed,
    ...siteViews({ ...data, events }, removed, site),
    announcements,
  };
}

/** Each event as a site in `lang` shows it: the same object when it has no translation there. */
function localizer(lang: string): (event: CalendarEvent) => CalendarEvent {
  const copies = new Map<CalendarEvent, CalendarEvent>();
  return (event) => {
    const texts = event.translations && textsIn(event.translations, lang);
    if (!texts) return event;
    let copy = copies.get(event);
    if (!copy) {
      copy = translatedCopy(event, texts);
      copies.set(event, copy);
    }
    return copy;
  };
}

/**
 * The translation a site in `lang` shows: the one of its very tag, else the
 * one of its language alone (a `title.fr` serves `fr-BE`), else none.
 */
export function textsIn(
  translations: Readonly<Record<string, EventTexts>>,
  lang: string,
): EventTexts | null {
  const tags = Object.keys(translations);
  const exact = tags.find((tag) => tag.toLowerCase() === lang.toLowerCase());
  const primary = lang.split("-")[0]?.toLowerCase();
  const general = tags.find((tag) => tag.toLowerCase() === primary);
  const chosen = exact ?? general;
  return chosen === undefined ? null : (translations[chosen] ?? null);
}

function translatedCopy(event: CalendarEvent, texts: EventTexts): CalendarEvent {
  const fields: TranslatedTexts["fields"][number][] = [];
  if (texts.title) fields.push("title");
  if (texts.summary) fields.push("summary");
  if (texts.descriptionHtml) fields.push("description");
  if (fields.length === 0) return event;
  return {
    ...event,
    title: texts.title ?? event.title,
    summary: texts.summary ?? event.summary,
    descriptionHtml: texts.descriptionHtml ?? event.descriptionHtml,
    descriptionText: texts.descriptionText ?? event.descriptionText,
    translated: { fields, originalTitle: event.translated?.originalTitle ?? event.title },
  };
}

function sameRules(a: ReturnType<typeof weekRules>, b: ReturnType<typeof weekRules>): boolean {
  return a.firstDay === b.firstDay && a.weekend.join() === b.weekend.join();
}

/**
 * The announcements of changes as this language's feeds carry them: its
 * own event pages (and ids, as each feed's items are its own), the event's
 * title in its language where it has one.
 */
function localAnnouncements(
  announcements: readonly Announcement[],
  events: readonly CalendarEvent[],
  site: SiteConfig,
  dataSite: SiteConfig,
): readonly Announcement[] {
  if (announcements.length === 0) return announcements;
  const moved = site.url !== dataSite.url;
  const titled = new Map(
    events.flatMap((event) =>
      event.translated?.fields.includes("title")
        ? [[`${event.calendarId}\u0000${event.id}`, event.title] as const]
        : [],
    ),
  );
  if (!moved && titled.size === 0) return announcements;
  const here = (url: string) => {
    const path = moved ? dataSite.urls.sitePath(url) : null;
    return path === null ? url : site.urls.absolute(path);
  };
  return announcements.map((a) => ({
    ...a,
    id: here(a.id),
    url: here(a.url),
    title: titled.get(`${a.calendarId}\u0000${a.eventId}`) ?? a.title,
  }));
}

/** Whether the portal's text needs its own `lang` on a page of the site in `site.lang`. */
export function portalTextLang(site: Pick<SiteConfig, "lang" | "contentLang">): string | null {
  return differsFrom(site.contentLang, site.lang) ? site.contentLang : null;
}
