import type { SiteConfig } from "../config/site.ts";
import { type Messages, messagesFor } from "../i18n/messages.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { encodeIdSegment, paths } from "../model/url-scheme.ts";
import { eventEmbedSnippets } from "./event-card/event-card-snippets.ts";
import { escapeHtml } from "./html.ts";
import { siteWidgetLabels } from "./labels.ts";
import { type GuideText, WIDGET_OPTIONS } from "./options.ts";
import { embedSnippets } from "./snippets.ts";

/**
 * /embed/: how to embed a calendar, every option with its default, and the
 * snippets of each calendar. Standalone (own stylesheet, no site layout), in
 * the site's language (src/i18n, the `guide…` messages); code, attribute
 * names and option values stay as they are written.
 */
export function renderEmbedDocsPage(
  calendars: readonly Calendar[],
  site: Pick<SiteConfig, "url" | "urls" | "lang" | "title" | "eventEmbeds"> &
    Partial<Pick<SiteConfig, "languages">>,
  /** An event whose card the guide shows (none: the site has no event to embed). */
  example?: { readonly event: CalendarEvent; readonly calendar: Calendar },
): string {
  const { urls } = site;
  const m = messagesFor(site.lang);
  const text = (key: string, html?: Readonly<Record<string, string>>) => m.formatHtml(key, html);
  const code = (value: string) => `<code>${escapeHtml(value)}</code>`;
  const link = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  // The snippets' fallback link, what visitors without JavaScript see on the embedding site.
  const fallback = escapeHtml(siteWidgetLabels(site.lang).eventsOf);
  const first = calendars[0];
  const seg = first ? encodeIdSegment(first.id) : "{calendar}";
  const two = calendars
    .slice(0, 2)
    .map((c) => encodeIdSegment(c.id))
    .join(",");
  const embedJs = urls.absolute(paths.embedScript());
  const all = urls.absolute(paths.embedCalendars());
  const pre = (snippet: string) => `<pre><code>${escapeHtml(snippet)}</code></pre>`;
  // A site in several languages offers its own: `lang` shows that language's site (docs/widget.md).
  const languages = site.languages ?? [];
  const several = languages.length > 1;
  const valuesOf = (o: (typeof WIDGET_OPTIONS)[number]): GuideText =>
    o.name === "lang" && several
      ? { code: languages.map((language) => language.lang.toLowerCase()).join(", ") }
      : o.values;
  const optionRows = WIDGET_OPTIONS.map(
    (o) =>
      `<tr><th scope="row"><code>${o.name}</code><br><code>${o.attribute}</code></th><td>${guideText(m, valuesOf(o))}</td><td>${guideText(m, o.defaultValue)}</td><td>${text(o.description)} <code>${escapeHtml(o.example)}</code></td></tr>`,
  ).join("\n");
  // The guide in each of the site's languages, as every page links its translations.
  const alternates = several
    ? [
        ...languages.map(({ lang, url }) => ({ lang, url })),
        { lang: "x-default", url: languages[0]?.url ?? site.url },
      ]
        .map(
          ({ lang, url }) =>
            `\n<link rel="alternate" hreflang="${escapeHtml(lang)}" href="${escapeHtml(`${url}${paths.embedGuide()}`)}">`,
        )
        .join("")
    : "";
  const calendarSections = calendars
    .map((c) => {
      const s = embedSnippets(c, site);
      return `<h3>${escapeHtml(c.name)}</h3>
<p>${text("guideCalendarSegment", { segment: code(encodeIdSegment(c.id)) })} · ${link(s.previewUrl, m.format("guidePreviewLink"))} · ${link(urls.href(paths.oembed(c.id)), "oEmbed")}</p>
${pre(s.script)}
${pre(s.iframe)}`;
    })
    .join("\n");
  const preview = first
    ? `<h2 id="preview">${text("guidePreviewHeading")}</h2>
<iframe class="preview" src="${escapeHtml(`${urls.href(paths.embed(first.id))}?view=month`)}" title="${text("guidePreviewFrame", { name: escapeHtml(first.name) })}" loading="lazy"></iframe>`
    : "";
  const oembedAnswer = code(`${site.url}/oembed/{calendar}.json`);

  return `<!DOCTYPE html>
<html lang="${escapeHtml(site.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text("guideTitle")} · ${escapeHtml(site.title)}</title>${alternates}
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${urls.href(paths.widgetAsset("docs.css"))}">
</head>
<body>
<main>
<h1>${text("guideHeading")}</h1>
<p>${text("guideIntro", { site: link(urls.href(paths.home()), site.title) })}</p>

<h2 id="script">${text("guideScriptHeading")}</h2>
<p>${text("guideScriptText")}</p>
${pre(`<a href="${site.url}/calendars/${seg}/" data-ecp-fallback>${fallback}</a>\n<script src="${site.url}/embed.js" data-calendar="${seg}" data-count="10" data-theme="auto" async></script>`)}
<p>${text("guideScriptOptions", { data: code("data-") })}</p>

<h2 id="iframe">${text("guideIframeHeading")}</h2>
<p>${text("guideIframeText")}</p>
${pre(`<iframe src="${site.url}/embed/${seg}/?count=10&lang=nl" title="${fallback}" width="100%" height="600" loading="lazy" style="border:0"></iframe>`)}

<h2 id="oembed">${text("guideOembedHeading")}</h2>
<p>${text("guideOembedText", {
    pageUrl: code(`${site.url}/calendars/{calendar}/`),
    answerUrl: oembedAnswer,
    endpointUrl: code(`${site.url}/oembed?url={page address}`),
    maxwidth: code("maxwidth"),
    maxheight: code("maxheight"),
  })}${site.eventEmbeds ? ` ${text("guideOembedEvent", { answerUrl: code(`${site.url}/oembed/{calendar}/events/{event}.json`) })}` : ""}</p>

<h2 id="several">${text("guideSeveralHeading")}</h2>
<p>${text("guideSeveralText", {
    calendarsAttribute: code("data-calendars"),
    calendarsParameter: code("calendars"),
    allUrl: code(all),
    categoryAttribute: code("data-category"),
    calendarAttribute: code("data-calendar"),
  })}</p>
${pre(`<a href="${urls.absolute(paths.events())}" data-ecp-fallback>${fallback}</a>\n<script src="${embedJs}" data-calendars="${two || "{calendar},{calendar}"}" async></script>`)}
${pre(`<iframe src="${all}?calendars=${two}&view=month" title="${fallback}" width="100%" height="600" loading="lazy" style="border:0"></iframe>`)}
<p>${text("guideSeveralRequests")}</p>
${eventSection(site, m, example)}

<h2 id="element">${text("guideElementHeading")}</h2>
<p>${text("guideElementText", {
    element: code("<event-calendar>"),
    script: code("embed.js"),
    src: code("src"),
    data: code("data-"),
    examples: ["calendar", "calendars", "event", "count", "show-title"].map(code).join(", "),
  })}</p>
${pre(`<event-calendar src="${urls.absolute(first ? paths.embed(first.id) : paths.embedCalendars())}?count=3"><a href="${urls.absolute(first ? paths.calendar(first.id) : paths.home())}">${fallback}</a></event-calendar>\n<event-calendar calendars="${two || "{calendar},{calendar}"}" view="month"><a href="${urls.absolute(paths.events())}">${fallback}</a></event-calendar>\n<script src="${embedJs}" async></script>`)}

<h2 id="options">${text("guideOptionsHeading")}</h2>
<p>${text("guideOptionsText", {
    category: code("category"),
    q: code("q"),
    categoryAttribute: code('data-category="family"'),
    categoryParameter: code("?category=family"),
    qAttribute: code('data-q="jazz"'),
  })}</p>
<table>
<thead><tr><th scope="col">${text("guideColumnOption")}</th><th scope="col">${text("guideColumnValues")}</th><th scope="col">${text("guideColumnDefault")}</th><th scope="col">${text("guideColumnEffect")}</th></tr></thead>
<tbody>
${optionRows}
</tbody>
</table>

<h2 id="calendars">${text("guideCalendarsHeading")}</h2>
${calendarSections || `<p>${text("guideNoCalendars")}</p>`}
${preview}

<h2 id="json">${text("guideDataHeading")}</h2>
<p>${text("guideDataText", {
    calendarsJson: link(urls.href(paths.apiCalendars()), "calendars.json"),
    eventsJson: code("/api/calendars/{calendar}/events.json"),
    manifestJson: link(urls.href(paths.apiManifest()), "manifest.json"),
  })}</p>
</main>
</body>
</html>
`;
}

/** An option's values or default: a message in the site's language, or code words, each as code. */
function guideText(m: Messages, value: GuideText): string {
  return "code" in value
    ? value.code
        .split(", ")
        .map((word) => `<code>${escapeHtml(word)}</code>`)
        .join(", ")
    : escapeHtml(m.format(value.message, value.values));
}

/** "One event": what a card shows, and an event's snippets, as its page offers them. */
function eventSection(
  site: Pick<SiteConfig, "urls" | "eventEmbeds" | "lang">,
  m: Messages,
  example: { readonly event: CalendarEvent; readonly calendar: Calendar } | undefined,
): string {
  const heading = `<h2 id="event">${m.formatHtml("guideEventHeading")}</h2>`;
  if (!site.eventEmbeds) {
    return `${heading}\n<p>${m.formatHtml("guideEventOff", { setting: "<code>EVENT_EMBEDS=off</code>" })}</p>`;
  }
  const snippets = example ? eventEmbedSnippets(example.event, example.calendar, site) : null;
  const pre = (code: string) => `<pre><code>${escapeHtml(code)}</code></pre>`;
  const intro = `<p>${m.formatHtml("guideEventText", {
    addToCalendar: escapeHtml(m.format("addToCalendar")),
    embedThisEvent: escapeHtml(m.format("embedEventTitle")),
    theme: "<code>theme</code>",
    accent: "<code>accent</code>",
    compact: "<code>compact</code>",
  })}</p>`;
  if (!snippets || !example) return `${heading}\n${intro}`;
  return [
    heading,
    intro,
    `<p>${m.formatHtml("guideEventExample", {
      event: `<a href="${escapeHtml(snippets.previewUrl)}">${escapeHtml(example.event.title)}</a>`,
    })}</p>`,
    pre(snippets.script),
    pre(snippets.iframe),
    pre(snippets.element),
  ].join("\n");
}
