import { byStart } from "../../model/order.ts";
import type { Calendar, CalendarEvent } from "../../model/types.ts";
import { encodeIdSegment, paths } from "../../model/url-scheme.ts";
import {
  type EmbedPageSite,
  freshUntilAttribute,
  renderEventItem,
  renderWidgetDocument,
  upcomingOf,
  widgetPageContext,
} from "../embed-page.ts";
import { eventWhen } from "../event-when.ts";
import { escapeHtml } from "../html.ts";
import { WIDGET_DEFAULTS } from "../options.ts";

/**
 * /embed/_all/: the widget of several calendars (docs/widget.md). With
 * scripts off it lists the next events of every calendar, merged in the
 * site's order, each marked with its calendar's name and colour. widget.js
 * then applies `calendars` (which of them), `category` and the other options,
 * reading each chosen calendar's /api/calendars/{calendar}/events.json: the
 * files the one-calendar widget reads, so a visitor's browser and the CDN
 * share them, and no site-wide file grows with the whole site.
 *
 * The calendars ride in the header's legend, one item each with its segment,
 * name and events address: the allowlist the script compares `calendars` with.
 */
export interface AllCalendarsPageInput {
  readonly calendars: readonly Calendar[];
  /** A calendar's published events (the public JSON's window), sorted by start. */
  readonly eventsOf: (calendarId: string) => readonly CalendarEvent[];
  readonly site: EmbedPageSite & { readonly timeZone: string };
}

export function renderAllCalendarsPage({
  calendars,
  eventsOf,
  site,
}: AllCalendarsPageInput): string {
  const page = widgetPageContext(site);
  const { urls, labels } = page;
  const count = WIDGET_DEFAULTS.count;
  // Each calendar's first few upcoming events hold the merged first few.
  const shown = calendars
    .flatMap((calendar) => upcomingOf(eventsOf(calendar.id), site.now).slice(0, count))
    .sort(byStart)
    .slice(0, count);
  const byId = new Map(calendars.map((calendar) => [calendar.id, calendar]));
  const currentYear = site.now.setZone(site.timeZone).year;
  const items = shown.flatMap((event) => {
    const calendar = byId.get(event.calendarId);
    if (!calendar) return [];
    // Zones are named when they differ from the site's, the zone the list is read in.
    const ctx = { locale: page.locale, calendarZone: site.timeZone, currentYear };
    return [renderEventItem(event, eventWhen(event, ctx), page, { calendar })];
  });
  const legend = calendars
    .map((calendar) => {
      const segment = encodeIdSegment(calendar.id);
      return `<li class="cal-${segment}" data-calendar="${segment}" data-events-url="${escapeHtml(urls.href(paths.apiEvents(calendar.id)))}" dir="auto"${page.portalLang}>${escapeHtml(calendar.name)}</li>`;
    })
    .join("\n");
  const allEvents = urls.href(paths.events());
  return renderWidgetDocument(page, {
    title: site.title,
    canonical: urls.absolute(paths.events()),
    rootClass: " ecp--multi",
    rootData: [`data-zone="${escapeHtml(site.timeZone)}"`, freshUntilAttribute(shown)],
    head: `<h1 class="ecp-title"><a href="${escapeHtml(allEvents)}" target="_blank" rel="noopener"><bdi>${escapeHtml(site.title)}</bdi>${page.newTab}</a></h1>
<h2 class="ecp-sr" id="ecp-calendars">${escapeHtml(labels.calendars)}</h2>
<ul class="ecp-legend">
${legend}
</ul>`,
    items,
    footUrl: allEvents,
    // The calendars' colours, as the site's pages have them (src/site/calendar-colors.ts).
    stylesheets: [urls.href(paths.asset("calendars.css"))],
  });
}
