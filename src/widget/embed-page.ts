import type { DateTime } from "luxon";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { encodeIdSegment, paths, type SiteUrls } from "../model/url-scheme.ts";
import { isUpcoming } from "../outputs/public-json.ts";
import { portalTextLang } from "../site/language-data.ts";
import { weekRules } from "../site/when/week-rules.ts";
import { type EventWhen, eventWhen } from "./event-when.ts";
import { escapeHtml } from "./html.ts";
import { siteWidgetLabels, widgetLanguage, widgetLocale } from "./labels.ts";
import { WIDGET_DEFAULTS } from "./options.ts";
import type { WidgetLabels } from "./widget-config.ts";

/**
 * The embed page /embed/{calendar}/: a complete, self-contained document that
 * lists the calendar's next events with scripts off. /embed/widget.js then
 * applies the options in its URL. The page carries no inline script or style
 * (the site's Content-Security-Policy forbids both); data for the script rides
 * in data- attributes.
 */
export interface EmbedPageInput {
  readonly calendar: Calendar;
  /** The calendar's events, sorted by start; the page picks the upcoming ones. */
  readonly events: readonly CalendarEvent[];
  readonly site: EmbedPageSite;
}

export interface EmbedPageSite {
  readonly urls: SiteUrls;
  readonly title: string;
  readonly lang: string;
  readonly now: DateTime;
  /** EVENT_CONTENT_LANG: the portal's texts carry it where the page's language differs. */
  readonly contentLang?: string;
}

export function renderEmbedPage({ calendar, events, site }: EmbedPageInput): string {
  const page = widgetPageContext(site);
  const { urls } = page;
  const shown = upcomingOf(events, site.now).slice(0, WIDGET_DEFAULTS.count);
  const calendarUrl = urls.href(paths.calendar(calendar.id));
  const ctx = {
    locale: page.locale,
    calendarZone: calendar.timeZone,
    currentYear: site.now.setZone(calendar.timeZone).year,
  };
  const items = shown.map((e) => renderEventItem(e, eventWhen(e, ctx), page));
  return renderWidgetDocument(page, {
    title: `${calendar.name} · ${site.title}`,
    canonical: urls.absolute(paths.calendar(calendar.id)),
    rootClass: "",
    rootData: [
      `data-zone="${escapeHtml(calendar.timeZone)}"`,
      `data-events-url="${escapeHtml(urls.href(paths.apiEvents(calendar.id)))}"`,
      calendar.color ? `data-color="${escapeHtml(calendar.color)}"` : "",
      freshUntilAttribute(shown),
    ],
    head: `<h1 class="ecp-title"><a href="${escapeHtml(calendarUrl)}" target="_blank" rel="noopener"><bdi${page.portalLang}>${escapeHtml(calendar.name)}</bdi>${page.newTab}</a></h1>`,
    items,
    footUrl: calendarUrl,
  });
}

/** What every list page of the widget shares: language, locale, labels, links. */
export interface WidgetPageContext {
  readonly urls: SiteUrls;
  readonly lang: string;
  readonly locale: string;
  /** The ISO weekday the locale's weeks start on (the month view's first column). */
  readonly firstDay: number;
  readonly labels: WidgetLabels;
  /** The screen-reader note after a link that opens a new tab. */
  readonly newTab: string;
  /** The portal's language where the page is in another (src/site/language-data.ts); else null. */
  readonly contentLang: string | null;
  /** ` lang="…"` for the portal's texts: `contentLang`'s attribute, or "". */
  readonly portalLang: string;
}

export function widgetPageContext(
  site: Pick<EmbedPageSite, "urls" | "lang" | "contentLang">,
): WidgetPageContext {
  const lang = widgetLanguage(site.lang);
  const labels = siteWidgetLabels(site.lang);
  const locale = widgetLocale(lang, site.lang);
  const contentLang = site.contentLang
    ? portalTextLang({ lang: site.lang, contentLang: site.contentLang })
    : null;
  return {
    urls: site.urls,
    lang,
    locale,
    firstDay: weekRules(locale).firstDay,
    labels,
    newTab: `<span class="ecp-sr ecp-newtab"> ${escapeHtml(labels.newTab)}</span>`,
    contentLang,
    portalLang: contentLang ? ` lang="${escapeHtml(contentLang)}"` : "",
  };
}

/** The events that have not ended at `now`, in the order given. */
export function upcomingOf(events: readonly CalendarEvent[], now: DateTime): CalendarEvent[] {
  const nowMs = now.toMillis();
  return events.filter((e) => isUpcoming(e, nowMs));
}

/**
 * When the build-time list goes stale: the first listed event's end. The
 * browser script re-renders from the JSON after it.
 */
export function freshUntilAttribute(shown: readonly CalendarEvent[]): string {
  if (!shown.length) return "";
  const until = new Date(
    Math.min(...shown.map((e) => Math.max(Date.parse(e.start), Date.parse(e.end)))),
  );
  return `data-fresh-until="${until.toISOString()}"`;
}

export interface WidgetDocumentParts {
  readonly title: string;
  readonly canonical: string;
  /** Classes added to the root's ("ecp--multi"), with a leading space. */
  readonly rootClass: string;
  /** data- attributes of the root, escaped; empty ones are dropped. */
  readonly rootData: readonly string[];
  /** Content of the header (the title, hidden by showTitle=false). */
  readonly head: string;
  readonly items: readonly string[];
  readonly footUrl: string;
  /** More stylesheets (site paths' hrefs) after the widget's own. */
  readonly stylesheets?: readonly string[];
}

/** A widget list page: head, the build-time list, and the link to the site. */
export function renderWidgetDocument(page: WidgetPageContext, parts: WidgetDocumentParts): string {
  const { labels } = page;
  const attrs = [
    `id="ecp"`,
    `class="ecp ecp--${WIDGET_DEFAULTS.theme}${parts.rootClass}"`,
    `data-lang="${page.lang}"`,
    `data-locale="${escapeHtml(page.locale)}"`,
    `data-first-day="${page.firstDay}"`,
    // What the script marks the portal's texts with as it renders them.
    page.contentLang ? `data-content-lang="${escapeHtml(page.contentLang)}"` : "",
    ...parts.rootData,
  ].filter(Boolean);
  const body = parts.items.length
    ? `<h2 class="ecp-sr" id="ecp-upcoming">${escapeHtml(labels.upcoming)}</h2>\n<ol class="ecp-list">\n${parts.items.join("\n")}\n</ol>`
    : `<p class="ecp-empty">${escapeHtml(labels.empty)}</p>`;
  return `${documentStart(page, parts.title, parts.canonical, parts.stylesheets)}
<main ${attrs.join(" ")}>
<header class="ecp-head">
${parts.head}
</header>
<div class="ecp-body">
${body}
</div>
<p class="ecp-foot"><a href="${escapeHtml(parts.footUrl)}" target="_blank" rel="noopener">${escapeHtml(labels.allEvents)}${page.newTab}</a></p>
</main>
</body>
</html>
`;
}

/**
 * The start of every widget document, up to <body>: no index, the canonical
 * page on the site, the widget's stylesheet and scripts (frame.js: the
 * messages to the framing page, WordPress's protocol among them; widget.js:
 * the options), the same for every widget page and event card, cached once
 * by a visitor's browser.
 */
export function documentStart(
  page: Pick<WidgetPageContext, "urls" | "locale" | "labels">,
  title: string,
  canonical: string,
  stylesheets: readonly string[] = [],
): string {
  const { urls } = page;
  const sheets = [urls.href(paths.widgetAsset("widget.css")), ...stylesheets]
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.locale)}" dir="${page.labels.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="canonical" href="${escapeHtml(canonical)}">
<link rel="icon" href="data:,">
${sheets}
<script src="${urls.href(paths.widgetAsset("frame.js"))}" defer></script>
<script src="${urls.href(paths.widgetAsset("widget.js"))}" defer></script>
</head>
<body>`;
}

/** The calendar an event is marked with in a widget of several calendars. */
export interface CalendarMarker {
  readonly calendar: Pick<Calendar, "id" | "name">;
}

/**
 * One event of a list. With a marker, the item carries its calendar's colour
 * class (/assets/calendars.css) and name, and `data-calendar` (its segment),
 * by which the browser script drops calendars the options leave out.
 */
export function renderEventItem(
  event: CalendarEvent,
  when: EventWhen,
  page: Pick<WidgetPageContext, "urls" | "labels" | "newTab" | "portalLang">,
  marker?: CalendarMarker,
): string {
  const { urls, labels, newTab } = page;
  const titleLang = event.translated?.fields.includes("title") ? "" : page.portalLang;
  // "Online" beside a place is the widget's own word: only a place alone is the portal's text.
  const whereLang = event.attendanceMode === "offline" ? page.portalLang : "";
  const time = (p: { datetime: string; text: string }) =>
    `<time datetime="${escapeHtml(p.datetime)}">${escapeHtml(p.text)}</time>`;
  const whenHtml =
    time(when.start) +
    (when.end ? ` – ${time(when.end)}` : "") +
    (when.zone ? ` <span class="ecp-zone">${escapeHtml(when.zone)}</span>` : "");
  const where = placeText(event, labels);
  const classes = `ecp-event${event.status === "cancelled" ? " ecp-event--cancelled" : ""}`;
  const segment = marker ? encodeIdSegment(marker.calendar.id) : "";
  return [
    marker
      ? `<li class="${classes} cal-${segment}" data-calendar="${segment}">`
      : `<li class="${classes}">`,
    `<a class="ecp-link" href="${escapeHtml(urls.href(paths.event(event.calendarId, event.id)))}" target="_blank" rel="noopener"><span class="ecp-name" dir="auto"${titleLang}>${escapeHtml(event.title)}</span>${statusBadges(event, labels)}${newTab}</a>`,
    // The event's zone, for the visitor's own time beside it (widget.js, tz=both).
    `<p class="ecp-when"${event.allDay ? "" : ` data-zone="${escapeHtml(event.timeZone)}"`}>${whenHtml}</p>`,
    where ? `<p class="ecp-where" dir="auto"${whereLang}>${escapeHtml(where)}</p>` : "",
    marker
      ? `<p class="ecp-cal" dir="auto"${page.portalLang}>${escapeHtml(marker.calendar.name)}</p>`
      : "",
    "</li>",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The Cancelled or Postponed badge, and New date (each with its leading space). */
export function statusBadges(
  event: Pick<CalendarEvent, "status" | "history">,
  labels: Pick<WidgetLabels, "cancelled" | "postponed" | "newDate">,
): string {
  const status =
    event.status === "cancelled"
      ? ` <span class="ecp-badge ecp-badge--cancelled">${escapeHtml(labels.cancelled)}</span>`
      : event.status === "postponed"
        ? ` <span class="ecp-badge">${escapeHtml(labels.postponed)}</span>`
        : "";
  const newDate =
    event.history?.newDate && event.status !== "cancelled"
      ? ` <span class="ecp-badge ecp-badge--new-date">${escapeHtml(labels.newDate)}</span>`
      : "";
  return status + newDate;
}

/** "Place, Town", plus "Online" for online and hybrid events. */
export function placeText(
  event: Pick<CalendarEvent, "location" | "attendanceMode">,
  labels: Pick<WidgetLabels, "online">,
): string {
  const loc = event.location;
  const town = loc?.address?.locality ?? null;
  let place = loc?.name ?? loc?.address?.formatted ?? "";
  if (loc?.name && town && !loc.name.includes(town)) place = `${loc.name}, ${town}`;
  if (event.attendanceMode === "offline") return place;
  return place ? `${place} · ${labels.online}` : labels.online;
}
