import type { SiteConfig } from "../config/site.ts";
import type { Calendar } from "../model/types.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
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
  site: Pick<SiteConfig, "url" | "urls" | "lang" | "title">,
): string {
  const { urls } = site;
  const first = calendars[0];
  const seg = first ? encodeIdSegment(first.id) : "{calendar}";
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
<p>Editors that support oEmbed discovery (WordPress, Ghost) embed a calendar from the pasted address of its page, <code>${escapeHtml(site.url)}/calendars/{calendar}/</code>. The oEmbed answer itself is <code>${escapeHtml(site.url)}/oembed/{calendar}.json</code>; where the site's host runs functions (Netlify, Cloudflare Pages), the endpoint <code>${escapeHtml(site.url)}/oembed?url={page address}</code> gives it sized to the editor's <code>maxwidth</code> and <code>maxheight</code>.</p>

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
