import type { SiteConfig } from "../config/site.ts";
import { messagesFor } from "../i18n/messages.ts";
import type { Calendar } from "../model/types.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
import { type OembedDiscovery, oembedDiscoveryUrl } from "../oembed/discovery.ts";
import { escapeHtml } from "./html.ts";
import { WIDGET_INITIAL_HEIGHT } from "./options.ts";

/**
 * The copy-and-paste snippets for a calendar, and its oEmbed answer
 * (https://oembed.com, section 2.3.4 "rich" type). Plain strings: a template
 * shows them inside <pre><code> with its usual escaping.
 */
export interface EmbedSnippets {
  /** The video way: an <iframe> with a fixed height. */
  readonly iframe: string;
  /** The one-line way: fallback link plus embed.js, which sizes the iframe to its content. */
  readonly script: string;
  /** Link (root-relative) to the embed page, for a live preview on the site itself. */
  readonly previewUrl: string;
}

type SnippetSite = Pick<SiteConfig, "urls" | "lang">;

/** "Events: Culture", the iframe's title and the fallback link, in the site's language. */
function embedTitle(calendar: Pick<Calendar, "name">, lang: string): string {
  return messagesFor(lang).format("widgetFrameTitle", { name: calendar.name });
}

export function embedSnippets(calendar: Calendar, site: SnippetSite): EmbedSnippets {
  const title = escapeHtml(embedTitle(calendar, site.lang));
  const { urls } = site;
  const iframe = `<iframe src="${escapeHtml(urls.absolute(paths.embed(calendar.id)))}" title="${title}" width="100%" height="${WIDGET_INITIAL_HEIGHT}" loading="lazy" style="border:0"></iframe>`;
  const script = [
    `<a href="${escapeHtml(urls.absolute(paths.calendar(calendar.id)))}" data-ecp-fallback>${title}</a>`,
    `<script src="${escapeHtml(urls.absolute(paths.embedScript()))}" data-calendar="${encodeIdSegment(calendar.id)}" async></script>`,
  ].join("\n");
  return { iframe, script, previewUrl: urls.href(paths.embed(calendar.id)) };
}

/**
 * oEmbed discovery (oEmbed section 4) for the calendar page's <head>: the
 * endpoint or the static answer, as the host allows (src/oembed/discovery.ts).
 */
export function oembedLinkTag(
  calendar: Calendar,
  site: SnippetSite,
  discovery: OembedDiscovery,
): string {
  return `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembedDiscoveryUrl(calendar.id, site.urls, discovery))}" title="${escapeHtml(embedTitle(calendar, site.lang))}">`;
}

/** The width the oEmbed answer asks for; the widget itself fits any width. */
export const OEMBED_WIDTH = 600;

/**
 * The oEmbed answer's `html`, in the shape WordPress keeps for a provider it
 * does not know (wp-includes/embed.php, `wp_filter_oembed_result`): first a
 * `<blockquote>` with a link to the calendar's page, which WordPress shows
 * until the widget reports its height (and keeps if it never does), then the
 * iframe with only the attributes WordPress keeps, numbers for its size.
 * WordPress adds `sandbox="allow-scripts"` and `#?secret=` to the iframe;
 * the widget then speaks WordPress's messages (src/widget/browser/frame.ts).
 *
 * The blockquote is `hidden` for every other consumer (Ghost, Drupal), which
 * shows the html as it is: the iframe alone, so the answer's width and height
 * are the html's own, as the spec asks (section 2.3.4) and as Drupal's frame
 * of exactly that size needs. WordPress keeps no attribute of a blockquote,
 * so there it is the fallback it expects.
 */
export function oembedHtml(
  calendar: Calendar,
  site: SnippetSite,
  size: { readonly width: number; readonly height: number },
): string {
  return framedEmbedHtml({
    title: embedTitle(calendar, site.lang),
    page: site.urls.absolute(paths.calendar(calendar.id)),
    src: site.urls.absolute(paths.embed(calendar.id)),
    ...size,
  });
}

/**
 * An oEmbed answer's html in the shape WordPress keeps for a provider it does
 * not know: a blockquote (its fallback, hidden for consumers that show the
 * html as it is), then the iframe with the attributes WordPress allows.
 */
export function framedEmbedHtml(embed: {
  readonly title: string;
  /** The page the fallback links to. */
  readonly page: string;
  /** The embed page the iframe shows. */
  readonly src: string;
  readonly width: number;
  readonly height: number;
}): string {
  const title = escapeHtml(embed.title);
  return `<blockquote hidden><a href="${escapeHtml(embed.page)}">${title}</a></blockquote><iframe src="${escapeHtml(embed.src)}" width="${embed.width}" height="${embed.height}" frameborder="0" scrolling="no" title="${title}"></iframe>`;
}

/**
 * The static oEmbed answer (type `rich`, section 2.3.4): what hosts without
 * functions serve, and what the endpoint (src/oembed/endpoint.ts) sizes to a
 * consumer's maxwidth and maxheight. `width` and `height` are numbers, as
 * the spec and Ghost require.
 */
export function writeOembedJson(
  calendar: Calendar,
  site: Pick<SiteConfig, "urls" | "lang" | "title" | "refreshMinutes">,
): string {
  const size = { width: OEMBED_WIDTH, height: WIDGET_INITIAL_HEIGHT };
  const body = {
    type: "rich",
    version: "1.0",
    title: embedTitle(calendar, site.lang),
    provider_name: site.title,
    provider_url: site.urls.absolute(paths.home()),
    // Consumers may cache the answer as long as the site stays unchanged.
    cache_age: site.refreshMinutes * 60,
    html: oembedHtml(calendar, site, size),
    width: size.width,
    height: size.height,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
