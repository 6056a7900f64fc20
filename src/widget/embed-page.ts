import type { DateTime } from "luxon";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { paths, type SiteUrls } from "../model/url-scheme.ts";
import { isUpcoming } from "../outputs/public-json.ts";
import { type EventWhen, eventWhen } from "./event-when.ts";
import { escapeHtml } from "./html.ts";
import { WIDGET_LABELS, type WidgetLabels, widgetLanguage, widgetLocale } from "./labels.ts";
import { WIDGET_DEFAULTS } from "./options.ts";

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
  readonly site: {
    readonly urls: SiteUrls;
    readonly title: string;
    readonly lang: string;
    readonly now: DateTime;
  };
}

export function renderEmbedPage({ calendar, events, site }: EmbedPageInput): string {
  const lang = widgetLanguage(site.lang);
  const labels = WIDGET_LABELS[lang];
  const locale = widgetLocale(lang, site.lang);
  const { urls } = site;
  const nowMs = site.now.toMillis();
  const shown = events.filter((e) => isUpcoming(e, nowMs)).slice(0, WIDGET_DEFAULTS.count);
  const freshUntil = shown.length
    ? new Date(Math.min(...shown.map((e) => Math.max(Date.parse(e.start), Date.parse(e.end)))))
    : null;
  const calendarUrl = urls.href(paths.calendar(calendar.id));
  const ctx = {
    locale,
    calendarZone: calendar.timeZone,
    currentYear: site.now.setZone(calendar.timeZone).year,
  };
  const newTab = `<span class="ecp-sr"> ${escapeHtml(labels.newTab)}</span>`;
  const attrs = [
    `id="ecp"`,
    `class="ecp ecp--${WIDGET_DEFAULTS.theme}"`,
    `data-lang="${lang}"`,
    `data-locale="${escapeHtml(locale)}"`,
    `data-zone="${escapeHtml(calendar.timeZone)}"`,
    `data-events-url="${escapeHtml(urls.href(paths.apiEvents(calendar.id)))}"`,
    calendar.color ? `data-color="${escapeHtml(calendar.color)}"` : "",
    freshUntil ? `data-fresh-until="${freshUntil.toISOString()}"` : "",
  ].filter(Boolean);

  const items = shown.map((e) => renderItem(e, eventWhen(e, ctx), labels, urls, newTab));
  const body = items.length
    ? `<h2 class="ecp-sr" id="ecp-upcoming">${escapeHtml(labels.upcoming)}</h2>\n<ol class="ecp-list">\n${items.join("\n")}\n</ol>`
    : `<p class="ecp-empty">${escapeHtml(labels.empty)}</p>`;

  return `<!DOCTYPE html>
<html lang="${escapeHtml(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${calendar.name} · ${site.title}`)}</title>
<link rel="canonical" href="${escapeHtml(urls.absolute(paths.calendar(calendar.id)))}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${urls.href(paths.widgetAsset("widget.css"))}">
<script src="${urls.href(paths.widgetAsset("frame.js"))}" defer></script>
<script src="${urls.href(paths.widgetAsset("widget.js"))}" defer></script>
</head>
<body>
<main ${attrs.join(" ")}>
<header class="ecp-head">
<h1 class="ecp-title"><a href="${escapeHtml(calendarUrl)}" target="_blank" rel="noopener">${escapeHtml(calendar.name)}${newTab}</a></h1>
</header>
<div class="ecp-body">
${body}
</div>
<p class="ecp-foot"><a href="${escapeHtml(calendarUrl)}" target="_blank" rel="noopener">${escapeHtml(labels.allEvents)}${newTab}</a></p>
</main>
</body>
</html>
`;
}

function renderItem(
  event: CalendarEvent,
  when: EventWhen,
  labels: WidgetLabels,
  urls: SiteUrls,
  newTab: string,
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
  const time = (p: { datetime: string; text: string }) =>
    `<time datetime="${escapeHtml(p.datetime)}">${escapeHtml(p.text)}</time>`;
  const whenHtml =
    time(when.start) +
    (when.end ? ` – ${time(when.end)}` : "") +
    (when.zone ? ` <span class="ecp-zone">${escapeHtml(when.zone)}</span>` : "");
  const where = placeText(event, labels);
  return [
    `<li class="ecp-event${event.status === "cancelled" ? " ecp-event--cancelled" : ""}">`,
    `<a class="ecp-link" href="${escapeHtml(urls.href(paths.event(event.calendarId, event.id)))}" target="_blank" rel="noopener"><span class="ecp-name">${escapeHtml(event.title)}</span>${status}${newDate}${newTab}</a>`,
    // The event's zone, for the visitor's own time beside it (widget.js, tz=both).
    `<p class="ecp-when"${event.allDay ? "" : ` data-zone="${escapeHtml(event.timeZone)}"`}>${whenHtml}</p>`,
    where ? `<p class="ecp-where">${escapeHtml(where)}</p>` : "",
    "</li>",
  ]
    .filter(Boolean)
    .join("\n");
}

/** "Place, Town", plus "Online" for online and hybrid events. */
function placeText(
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
