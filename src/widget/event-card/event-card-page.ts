import type { Calendar, CalendarEvent } from "../../model/types.ts";
import { paths, type SiteUrls } from "../../model/url-scheme.ts";
import { formatWhen } from "../../site/format.ts";
import {
  documentStart,
  placeText,
  statusBadges,
  type WidgetPageContext,
  widgetPageContext,
} from "../embed-page.ts";
import { escapeHtml } from "../html.ts";

/**
 * /embed/{calendar}/events/{event}/: one event as a card another site embeds
 * (docs/widget.md, "An event"). Rendered once by the build and complete
 * without scripts: date and time in the event's own zone (the event page's
 * own "when" line), title linked to the event page, place, image, status
 * badges, and "Add to calendar". It loads the widget's stylesheet and script,
 * which apply theme and accent and keep an embedding iframe as tall as the
 * card, by the same messages as the widget's lists.
 *
 * Nothing on it depends on the build's clock, so a rebuild of unchanged data
 * writes it again byte for byte.
 */
export interface EventCardInput {
  readonly event: CalendarEvent;
  readonly calendar: Calendar;
  /**
   * "Add to calendar": the event's .ics (a link on this site, or its bytes
   * as a data: URL with EVENT_ICS=inline); null for none (see offersAddToCalendar).
   */
  readonly ics: string | null;
  readonly site: {
    readonly urls: SiteUrls;
    readonly title: string;
    readonly lang: string;
    readonly contentLang?: string;
  };
}

export function renderEventCard({ event, calendar, ics, site }: EventCardInput): string {
  const page = widgetPageContext(site);
  const { urls, labels } = page;
  const removed = event.history?.removed ?? null;
  // An event moved to another calendar is shown at its new page, without the cancellation its old copy carries.
  const moved = removed?.kind === "moved" ? removed : null;
  const eventPath = paths.event(moved ? moved.calendarId : calendar.id, event.id);
  const eventUrl = urls.href(eventPath);
  const cancelled = !moved && event.status === "cancelled";
  const when = `<time datetime="${escapeHtml(event.allDay ? event.start.slice(0, 10) : event.start)}">${escapeHtml(formatWhen(event, site.lang))}</time>`;
  const where = placeText(event, labels);
  const badges = moved ? "" : statusBadges(event, labels);
  const titleLang = event.translated?.fields.includes("title") ? "" : page.portalLang;
  const whereLang = event.attendanceMode === "offline" ? page.portalLang : "";
  const attrs = [
    `id="ecp"`,
    `class="ecp ecp--light ecp--card"`,
    // The script only styles and sizes a card: it never loads or renders events here.
    `data-kind="event"`,
    `data-lang="${page.lang}"`,
    `data-locale="${escapeHtml(page.locale)}"`,
    `data-zone="${escapeHtml(calendar.timeZone)}"`,
    calendar.color ? `data-color="${escapeHtml(calendar.color)}"` : "",
  ].filter(Boolean);
  const lines = [
    `${documentStart(page, `${event.title} · ${site.title}`, urls.absolute(eventPath))}`,
    `<main ${attrs.join(" ")}>`,
    `<article class="ecp-card${cancelled ? " ecp-event--cancelled" : ""}">`,
    image(event, urls),
    `<p class="ecp-cal" dir="auto"${page.portalLang}>${escapeHtml(calendar.name)}</p>`,
    `<h1 class="ecp-card-title"><a class="ecp-link" href="${escapeHtml(eventUrl)}" target="_blank" rel="noopener"><span class="ecp-name" dir="auto"${titleLang}>${escapeHtml(event.title)}</span>${badges}${page.newTab}</a></h1>`,
    `<p class="ecp-when">${when}</p>`,
    where ? `<p class="ecp-where" dir="auto"${whereLang}>${escapeHtml(where)}</p>` : "",
    ics ? addToCalendar(ics, page) : "",
    "</article>",
    "</main>",
    "</body>",
    "</html>",
  ];
  return `${lines.filter(Boolean).join("\n")}\n`;
}

/**
 * The image as the site publishes it: copied into the site (src/media/localize-images.ts)
 * and linked from the card's origin, or the portal's http(s) address when the
 * copy failed. Its width and height reserve its room, so the card's height is
 * known before it loads.
 */
/**
 * Whether the card offers "Add to calendar": not for a cancelled event, nor
 * one gone from the portal, as the event page (templates/_includes/add-to-calendar.njk).
 */
export function offersAddToCalendar(event: Pick<CalendarEvent, "status" | "history">): boolean {
  return event.status !== "cancelled" && !event.history?.removed;
}

function image(event: CalendarEvent, urls: SiteUrls): string {
  const picture = event.image;
  if (!picture) return "";
  // The site's copy (the root's, in a language's folder) by path.
  const src = urls.localLink(picture.url);
  if (src === picture.url && !/^https?:\/\//i.test(src)) return "";
  const size =
    picture.width && picture.height ? ` width="${picture.width}" height="${picture.height}"` : "";
  return `<img class="ecp-card-image" src="${escapeHtml(src)}" alt="${escapeHtml(picture.alt ?? "")}"${size}>`;
}

function addToCalendar(ics: string, page: Pick<WidgetPageContext, "labels">): string {
  // An inline calendar (a data: URL) has no name of its own: `download` gives it one.
  const download = ics.startsWith("data:") ? ` download="event.ics"` : " download";
  return `<p class="ecp-actions"><a class="ecp-button" href="${escapeHtml(ics)}"${download}>${escapeHtml(page.labels.addToCalendar)}</a></p>`;
}
