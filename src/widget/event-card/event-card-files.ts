import type { SiteConfig } from "../../config/site.ts";
import { eventDigest } from "../../model/event-digest.ts";
import type { Calendar, CalendarEvent } from "../../model/types.ts";
import { paths } from "../../model/url-scheme.ts";
import { type FileGroup, fileGroup } from "../../render/file-group.ts";
import { eventShardKey } from "../../shards/shard.ts";
import type { EventPage } from "../../site/views.ts";
import { type EventCardInput, offersAddToCalendar, renderEventCard } from "./event-card-page.ts";
import {
  type EmbedThumbnail,
  imageThumbnail,
  writeEventOembedJson,
} from "./event-card-snippets.ts";

/** The groups of an event's card and its oEmbed answer (hosts limit how many files a site has). */
export const EVENT_EMBED_GROUPS = ["event card", "event oembed"] as const;

/**
 * Two files per event page: its card and the card's oEmbed answer. None with
 * EVENT_EMBEDS=off, for sites whose host counts files (docs/widget.md, "What
 * each costs"). Each card is rendered once, from the event as the page has
 * it; its times come from the event's one parse (src/model/event-times.ts).
 */
export function eventCardFileGroups(
  pages: readonly EventPage[],
  site: Pick<
    SiteConfig,
    "urls" | "title" | "lang" | "contentLang" | "refreshMinutes" | "eventIcs" | "eventEmbeds"
  >,
  /** The event's .ics as a data: URL (EVENT_ICS=inline), as the event page links it. */
  inlineIcs: (event: CalendarEvent) => string,
  /** The event's share card (src/cards), when the site has cards. */
  shareCard: (event: CalendarEvent) => EmbedThumbnail | null = () => null,
): readonly FileGroup[] {
  const items = site.eventEmbeds ? pages : [];
  const ics = (event: CalendarEvent) =>
    site.eventIcs === "inline" ? inlineIcs(event) : site.urls.href(paths.eventIcs(event));
  const cardInput = (calendar: Calendar, event: CalendarEvent): EventCardInput => ({
    event,
    calendar,
    ics: offersAddToCalendar(event) ? ics(event) : null,
    site,
  });
  const thumbnailOf = (event: CalendarEvent) => shareCard(event) ?? imageThumbnail(event, site);
  return [
    fileGroup<EventPage>({
      phase: "widget",
      name: EVENT_EMBED_GROUPS[0],
      items,
      path: ({ calendar, event }) => `${paths.embedEvent(calendar.id, event.id)}index.html`,
      shardKey: ({ event }) => eventShardKey(event),
      render: ({ calendar, event }) => renderEventCard(cardInput(calendar, event)),
      // Nothing on a card reads the build's clock (event-card-page.ts).
      inputs: ({ calendar, event }) => {
        const input = cardInput(calendar, event);
        return JSON.stringify([
          site.urls.siteUrl,
          site.title,
          site.lang,
          // What a card shows of its calendar; its updatedAt moves with any event's edit.
          [calendar.id, calendar.name, calendar.timeZone, calendar.color],
          eventDigest(event),
          input.ics,
        ]);
      },
    }),
    // Like the calendars' oEmbed answers, they count with the public JSON (docs/performance.md).
    fileGroup<EventPage>({
      phase: "json",
      name: EVENT_EMBED_GROUPS[1],
      items,
      path: ({ calendar, event }) => paths.oembedEvent(calendar.id, event.id),
      shardKey: ({ event }) => eventShardKey(event),
      render: ({ calendar, event }) =>
        writeEventOembedJson(event, calendar, site, thumbnailOf(event)),
      inputs: ({ calendar, event }) =>
        JSON.stringify([
          site.urls.siteUrl,
          site.title,
          site.refreshMinutes,
          calendar.id,
          eventDigest(event),
          thumbnailOf(event),
        ]),
    }),
  ];
}
