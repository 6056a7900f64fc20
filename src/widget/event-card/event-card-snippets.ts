import type { SiteConfig } from "../../config/site.ts";
import type { Calendar, CalendarEvent } from "../../model/types.ts";
import { encodeIdSegment, paths } from "../../model/url-scheme.ts";
import { escapeHtml } from "../html.ts";
import { framedEmbedHtml } from "../snippets.ts";

/**
 * How another site embeds one event's card: the snippets the event page
 * shows, its oEmbed discovery link and the oEmbed answer
 * (https://oembed.com, 2.3.4 "rich"), all plain strings like the calendar's
 * (src/widget/snippets.ts).
 */
export interface EventEmbedSnippets {
  /** A fixed-size iframe, where scripts are not allowed. */
  readonly iframe: string;
  /** Fallback link plus embed.js, which sizes the card's iframe to its content. */
  readonly script: string;
  /** The <event-calendar> element (embed.js defines it), with its fallback link inside. */
  readonly element: string;
  /** Link (root-relative) to the card, to preview it. */
  readonly previewUrl: string;
}

type SnippetSite = Pick<SiteConfig, "urls">;
type CardEvent = Pick<CalendarEvent, "id" | "title" | "image">;

/** Width the oEmbed answer names; the card fills whatever width it is given. */
export const CARD_WIDTH = 480;

/**
 * Height the iframe snippet reserves: the card's text, plus its image, which
 * the stylesheet keeps at most 240 px tall, with room for a title on two
 * lines. test/widget/embeds.browser.test.ts holds the cards within it from
 * 320 to 800 px wide, so the fixed iframe shows a card without scrolling.
 */
export function cardHeight(event: Pick<CalendarEvent, "image">): number {
  return event.image ? 440 : 220;
}

export function eventEmbedSnippets(
  event: CardEvent,
  calendar: Pick<Calendar, "id">,
  site: SnippetSite,
): EventEmbedSnippets {
  const { urls } = site;
  const card = urls.absolute(paths.embedEvent(calendar.id, event.id));
  const title = escapeHtml(event.title);
  const fallback = `<a href="${escapeHtml(urls.absolute(paths.event(calendar.id, event.id)))}"`;
  const script = `<script src="${escapeHtml(urls.absolute(paths.embedScript()))}"`;
  return {
    iframe: `<iframe src="${escapeHtml(card)}" title="${title}" width="100%" height="${cardHeight(event)}" loading="lazy" style="border:0"></iframe>`,
    script: [
      `${fallback} data-ecp-fallback>${title}</a>`,
      `${script} data-calendar="${encodeIdSegment(calendar.id)}" data-event="${encodeIdSegment(event.id)}" async></script>`,
    ].join("\n"),
    element: [
      `<event-calendar src="${escapeHtml(card)}">${fallback}>${title}</a></event-calendar>`,
      `${script} async></script>`,
    ].join("\n"),
    previewUrl: urls.href(paths.embedEvent(calendar.id, event.id)),
  };
}

/** oEmbed discovery (oEmbed section 4) for the event page's <head>. */
export function eventOembedLinkTag(
  event: CardEvent,
  calendar: Pick<Calendar, "id">,
  site: SnippetSite,
): string {
  return `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(site.urls.absolute(paths.oembedEvent(calendar.id, event.id)))}" title="${escapeHtml(event.title)}">`;
}

/** A picture a consumer shows before the embed (oEmbed 2.3.4: URL, width and height, all three or none). */
export interface EmbedThumbnail {
  /** Absolute, at SITE_URL. */
  readonly url: string;
  readonly width: number;
  readonly height: number;
}

/**
 * The event's own image as a thumbnail: the raster copy the site publishes
 * (src/media), with its size. Never an SVG, which the consumers that show
 * thumbnails (chat apps, forums) cannot draw, and never an address off the site.
 */
export function imageThumbnail(
  event: Pick<CalendarEvent, "image">,
  site: Pick<SiteConfig, "urls">,
): EmbedThumbnail | null {
  const image = event.image;
  if (!image?.width || !image.height) return null;
  const local = image.url.startsWith(site.urls.absolute(paths.media("")));
  if (!local || /\.svg$/i.test(image.url)) return null;
  return { url: image.url, width: image.width, height: image.height };
}

/**
 * `thumbnail`: the event's share card when the site has cards (a 1200 x 630
 * PNG made to be shown small), else its image (imageThumbnail), else none.
 */
export function writeEventOembedJson(
  event: CardEvent,
  calendar: Pick<Calendar, "id">,
  site: Pick<SiteConfig, "urls" | "title" | "refreshMinutes">,
  thumbnail: EmbedThumbnail | null,
): string {
  const body = {
    type: "rich",
    version: "1.0",
    title: event.title,
    provider_name: site.title,
    provider_url: site.urls.absolute(paths.home()),
    cache_age: site.refreshMinutes * 60,
    // WordPress's shape, as the calendar's answer (src/widget/snippets.ts).
    html: framedEmbedHtml({
      title: event.title,
      page: site.urls.absolute(paths.event(calendar.id, event.id)),
      src: site.urls.absolute(paths.embedEvent(calendar.id, event.id)),
      width: CARD_WIDTH,
      height: cardHeight(event),
    }),
    width: CARD_WIDTH,
    height: cardHeight(event),
    ...(thumbnail
      ? {
          thumbnail_url: thumbnail.url,
          thumbnail_width: thumbnail.width,
          thumbnail_height: thumbnail.height,
        }
      : {}),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
