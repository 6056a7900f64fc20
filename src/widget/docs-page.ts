import type { SiteConfig } from "../config/site.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
import { eventEmbedSnippets } from "./event-card/event-card-snippets.ts";
import { escapeHtml } from "./html.ts";
import { WIDGET_OPTIONS } from "./options.ts";
import { embedSnippets } from "./snippets.ts";

/**
 * /embed/: how to embed a calendar, every option with its default, and the
 * snippets of each calendar. Standalone (own stylesheet, no site layout), in
 * English like docs/widget.md.
 */
export function renderEmbedDocsPage(
  calendars: readonly Calendar[],
  site: Pick<SiteConfig, "url" | "urls" | "lang" | "title" | "eventEmbeds">,
  /** An event whose card the guide shows (none: the site has no event to embed). */
  example?: { readonly event: CalendarEvent; readonly calendar: Calendar },
): string {
  const { urls } = site;
  const first = calendars[0];
  const seg = first ? encodeIdSegment(first.id) : "{calendar}";
  const two = calendars
    .slice(0, 2)
    .map((c) => encodeIdSegment(c.id))
    .join(",");
  const embedJs = urls.absolute(paths.embedScript());
  const all = urls.absolute(paths.embedCalendars());
  const pre = (code: string) => `<pre><code>${escapeHtml(code)}</code></pre>`;
  const optionRows = WIDGET_OPTIONS.map(
    (o) =>
      `<tr><th scope="row"><code>${o.name}</code><br><code>${o.attribute}</code></th><td>${escapeHtml(o.values)}</td><td>${escapeHtml(o.defaultValue)}</td><td>${escapeHtml(o.description)} <code>${escapeHtml(o.example)}</code></td></tr>`,
  ).join("\n");
  const calendarSections = calendars
    .map((c) => {
      const s = embedSnippets(c, site);
      return `<h3>${escapeHtml(c.name)}</h3>
<p>Calendar segment: <code>${escapeHtml(encodeIdSegment(c.id))}</code> · <a href="${escapeHtml(s.previewUrl)}">preview</a> · <a href="${escapeHtml(urls.href(paths.oembed(c.id)))}">oEmbed</a></p>
${pre(s.script)}
${pre(s.iframe)}`;
    })
    .join("\n");
  const preview = first
    ? `<h2 id="preview">Preview</h2>
<iframe class="preview" src="${escapeHtml(`${urls.href(paths.embed(first.id))}?view=month`)}" title="${escapeHtml(`${first.name}, month view`)}" loading="lazy"></iframe>`
    : "";

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Embed the calendar · ${site.title}`)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${urls.href(paths.widgetAsset("docs.css"))}">
</head>
<body>
<main>
<h1>Embed the calendar on your site</h1>
<p>Show the events of <a href="${escapeHtml(urls.href(paths.home()))}">${escapeHtml(site.title)}</a> on any web page, as you would a video. The widget is a static page of this site: no cookies, no third-party requests, and it always shows the latest published events.</p>

<h2 id="script">One line of script (recommended)</h2>
<p>Paste where the calendar should appear. The script puts the calendar there and keeps it exactly as tall as its content. The link is what visitors without JavaScript see.</p>
${pre(`<a href="${site.url}/calendars/${seg}/" data-ecp-fallback>Events</a>\n<script src="${site.url}/embed.js" data-calendar="${seg}" data-count="10" data-theme="auto" async></script>`)}
<p>Options are <code>data-</code> attributes on the script tag. Several calendars on one page each get their own script tag.</p>

<h2 id="iframe">An iframe</h2>
<p>Where scripts are not allowed (some site builders), use an iframe with a fixed height. Options are URL parameters.</p>
${pre(`<iframe src="${site.url}/embed/${seg}/?count=10&lang=nl" title="Events" width="100%" height="600" loading="lazy" style="border:0"></iframe>`)}

<h2 id="oembed">oEmbed</h2>
<p>Editors that support oEmbed discovery (WordPress, Ghost) embed a calendar from the pasted address of its page, <code>${escapeHtml(site.url)}/calendars/{calendar}/</code>. The oEmbed answer itself is <code>${escapeHtml(site.url)}/oembed/{calendar}.json</code>; where the site's host runs functions (Netlify, Cloudflare Pages), the endpoint <code>${escapeHtml(site.url)}/oembed?url={page address}</code> gives it sized to the editor's <code>maxwidth</code> and <code>maxheight</code>.${site.eventEmbeds ? ` An event is embedded from the address of its page in the same way (its answer is <code>${escapeHtml(site.url)}/oembed/{calendar}/events/{event}.json</code>).` : ""}</p>

<h2 id="several">Several calendars, or a category across them</h2>
<p>One list of the events of several calendars, in order of their start, each marked with its calendar's name and colour: <code>data-calendars</code> on the script tag (or <code>calendars</code> on <code>${escapeHtml(all)}</code>), with the segments of the calendars. Leave it empty for every calendar. <code>data-category</code> without <code>data-calendar</code> shows a category's events of every calendar (or of those named). Every other option works the same; unknown calendars and categories are ignored.</p>
${pre(`<a href="${urls.absolute(paths.events())}" data-ecp-fallback>Events</a>\n<script src="${embedJs}" data-calendars="${two || "{calendar},{calendar}"}" async></script>`)}
${pre(`<iframe src="${all}?calendars=${two}&view=month" title="Events" width="100%" height="600" loading="lazy" style="border:0"></iframe>`)}
<p>Without JavaScript it lists the next five events of every calendar. With options it reads the events file of each calendar it shows (one request per calendar, the same files a one-calendar widget reads), so name the calendars you need rather than all of a site with many.</p>
${eventSection(site, example)}

<h2 id="element">A custom element</h2>
<p>Where markup is easier to write than a script tag next to a link: <code>&lt;event-calendar&gt;</code>, defined by the same <code>embed.js</code> (once per page, wherever it stands). Give it the address of an embed page as <code>src</code>, or the same options as attributes without <code>data-</code> (<code>calendar</code>, <code>calendars</code>, <code>event</code>, <code>count</code>, <code>show-title</code>…). The link inside is what visitors without JavaScript see.</p>
${pre(`<event-calendar src="${urls.absolute(first ? paths.embed(first.id) : paths.embedCalendars())}?count=3"><a href="${urls.absolute(first ? paths.calendar(first.id) : paths.home())}">Events</a></event-calendar>\n<event-calendar calendars="${two || "{calendar},{calendar}"}" view="month"><a href="${urls.absolute(paths.events())}">Events</a></event-calendar>\n<script src="${embedJs}" async></script>`)}

<h2 id="options">Options</h2>
<p>Unknown or invalid values are ignored and the default applies. <code>category</code> and <code>q</code> narrow a calendar as the site's search filters do: for example only the family events of a sport calendar (<code>data-category="family"</code>, or <code>?category=family</code> on the iframe), or only events with a word (<code>data-q="jazz"</code>). Category ids are those of the site's category pages.</p>
<table>
<thead><tr><th scope="col">Parameter / attribute</th><th scope="col">Values</th><th scope="col">Default</th><th scope="col">Effect and example</th></tr></thead>
<tbody>
${optionRows}
</tbody>
</table>

<h2 id="calendars">Calendars</h2>
${calendarSections || "<p>No calendars are published yet.</p>"}
${preview}

<h2 id="json">Data</h2>
<p>The widget reads the public JSON files of this site, which other sites may use too: <a href="${urls.href(paths.apiCalendars())}">calendars.json</a>, <code>/api/calendars/{calendar}/events.json</code> and <a href="${urls.href(paths.apiManifest())}">manifest.json</a>.</p>
</main>
</body>
</html>
`;
}

/** "One event": what a card shows, and an event's snippets, as its page offers them. */
function eventSection(
  site: Pick<SiteConfig, "urls" | "eventEmbeds">,
  example: { readonly event: CalendarEvent; readonly calendar: Calendar } | undefined,
): string {
  const heading = `<h2 id="event">One event</h2>`;
  if (!site.eventEmbeds) {
    return `${heading}\n<p>Event cards are switched off on this site (<code>EVENT_EMBEDS=off</code>).</p>`;
  }
  const snippets = example ? eventEmbedSnippets(example.event, example.calendar, site) : null;
  const pre = (code: string) => `<pre><code>${escapeHtml(code)}</code></pre>`;
  const intro = `<p>A card with an event's date and time (in the event's own time zone), title, place, image, status and an "Add to calendar" link, for a page about that one event. Every event page offers its snippets under "Embed this event", and editors that support oEmbed embed the card from the address of the event's page. <code>theme</code>, <code>accent</code> and <code>compact</code> apply; the card is in the site's language.</p>`;
  if (!snippets || !example) return `${heading}\n${intro}`;
  return [
    heading,
    intro,
    `<p>For example <a href="${escapeHtml(snippets.previewUrl)}">${escapeHtml(example.event.title)}</a>, on one line of script, as an iframe, or as an element:</p>`,
    pre(snippets.script),
    pre(snippets.iframe),
    pre(snippets.element),
  ].join("\n");
}
