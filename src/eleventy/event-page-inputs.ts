import { eventDigest } from "../model/event-digest.ts";
import { contentHash } from "../render/published-files.ts";
import type { FilterLookup, PageInputs } from "../render/streamed-pages.ts";
import type { OtherDates, SeriesSummary } from "../series/series-index.ts";
import type { EventPage } from "../site/views.ts";
import { siteWideInputs } from "./site-wide-inputs.ts";

type Data = Record<string, unknown>;

/** The template of an event's page. */
export const EVENT_PAGE_TEMPLATE = "calendars/event.njk";

/**
 * Everything an event's page (templates/calendars/event.njk, with the
 * layout and includes it uses) shows, as text, for the writer to keep the
 * page as published when none of it changed (src/render/streamed-pages.ts).
 *
 * - Site-wide, once per run: the settings and the site's own global data
 *   (src/eleventy/site-wide-inputs.ts; the clock reaches the page only
 *   through what is listed below).
 * - Per page: its path, whether it is past (the clock's one effect on the
 *   page itself), the whole event, what the page shows of its calendar, of
 *   the organizations that publish it, of its series (the rule, the next and
 *   upcoming dates, each whole) and of its place, and what the page asks of
 *   the filters that read other state: the share card, when its data last
 *   changed, the feed links, and the add-to-calendar links where they carry
 *   the download's bytes (EVENT_ICS=inline). The filters are the template's
 *   own, so what is hashed is what would be rendered.
 * - Not written out: what is made from the above alone. The embed snippets
 *   and the oEmbed link are made from the event, its calendar's id and the
 *   settings; the add-to-calendar links, but for EVENT_ICS=inline, too; and
 *   the JSON-LD from the event, its page's address, the settings and the
 *   images of its share card (the card named above, and for a page without
 *   a card of its own, whether it is past). The JSON-LD is still made, to
 *   count it for the build report's rich results as rendering does
 *   (`countEventJsonLd`), but not written: it was the largest part of the
 *   text, which is made and hashed for every page (in a profile of one
 *   edited build at 100,000 events, writing the text took 2.0 s, the
 *   JSON-LD's own 0.79 s and the snippets 0.43 s: docs/performance.md,
 *   What changed, item 58).
 *
 * Undefined (every page rendered, and kept when its bytes are unchanged)
 * when the site's global data cannot be written as JSON.
 */
export function eventPageInputs(globals: Data, host: string): PageInputs | undefined {
  const siteWide = siteWideInputs(globals, host);
  if (siteWide === undefined) return undefined;
  const inlineIcs = (globals.site as { eventIcs?: string } | undefined)?.eventIcs === "inline";
  // The same for every page of a calendar: asked once per calendar in a run,
  // and named by its digest rather than written out again in every page's text.
  const feedLinks = new Map<object, string>();
  const feedLinksOf = (calendar: object, filter: FilterLookup) => {
    let digest = feedLinks.get(calendar);
    if (digest === undefined) {
      digest = contentHash(JSON.stringify(filter("feedLinks")(calendar)) ?? "");
      feedLinks.set(calendar, digest);
    }
    return digest;
  };
  return (item, filter) => {
    const page = item as EventPage;
    const { event, calendar } = page;
    const other = filter("otherDates")(event) as OtherDates | null;
    const place = filter("placeOf")(event) as { path: string; name: string } | null;
    const series = filter("seriesOf")(event) as SeriesSummary | null;
    return JSON.stringify([
      siteWide,
      page.path,
      page.isPast,
      eventDigest(event),
      [calendar.id, calendar.name, calendar.timeZone, calendar.color],
      page.publishedBy?.map((summary) => [summary.path, summary.organization.name]) ?? null,
      other && [
        filter("seriesRule")(other.series),
        other.series.path,
        other.next && eventDigest(other.next),
        other.upcoming.map(eventDigest),
      ],
      place && [place.path, place.name],
      series?.scope ?? null,
      filter("shareCard")(event),
      filter("dataUpdated")(page),
      feedLinksOf(calendar, filter),
      // Made from the event and the settings alone, but where they carry its download's bytes.
      inlineIcs ? filter("addToCalendarLinks")(event) : null,
      filter("countEventJsonLd")(event),
    ]);
  };
}
