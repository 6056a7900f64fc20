import type { SiteConfig } from "../config/site.ts";
import type { Calendar } from "../model/types.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
import { escapeHtml } from "./html.ts";
import { WIDGET_LABELS, widgetLanguage } from "./labels.ts";
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

function embedTitle(calendar: Pick<Calendar, "name">, lang: string): string {
  return `${WIDGET_LABELS[widgetLanguage(lang)].eventsOf}: ${calendar.name}`;
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

/** oEmbed discovery (oEmbed section 4) for the calendar page's <head>. */
export function oembedLinkTag(calendar: Calendar, site: SnippetSite): string {
  return `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(site.urls.absolute(paths.oembed(calendar.id)))}" title="${escapeHtml(embedTitle(calendar, site.lang))}">`;
}

export function writeOembedJson(
  calendar: Calendar,
  site: Pick<SiteConfig, "urls" | "lang" | "title" | "refreshMinutes">,
): string {
  const body = {
    type: "rich",
    version: "1.0",
    title: embedTitle(calendar, site.lang),
    provider_name: site.title,
    provider_url: site.urls.absolute(paths.home()),
    // Consumers may cache the answer as long as the site stays unchanged.
    cache_age: site.refreshMinutes * 60,
    html: embedSnippets(calendar, site).iframe,
    width: WIDGET_INITIAL_HEIGHT,
    height: WIDGET_INITIAL_HEIGHT,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
