import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSnapshot } from "../../src/model/types.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { embedSnippets, oembedLinkTag } from "../../src/widget/snippets.ts";
import { fixtureSnapshot, hostileCalendar } from "../fixtures/snapshot.ts";
import { listFilesSync } from "../helpers/files.ts";
import { type BuiltWidgetSite, buildWidgetSite } from "../helpers/plugin-site.ts";

/* The plugin inside a real Eleventy build, with a nunjucks page using its filters. */

// The walk's image as the media stage publishes it (a copy under /media/); the
// King's Day image is left off the site, where no thumbnail may point.
const mediaCopy = "https://example.org/agenda/media/0123456789abcdef.jpg";
const hostile: PortalSnapshot = {
  ...fixtureSnapshot,
  events: fixtureSnapshot.events.map((event) =>
    event.id === "e-dst" && event.image
      ? { ...event, image: { ...event.image, url: mediaCopy } }
      : event.id === "e-allday"
        ? {
            ...event,
            image: { url: "https://media.example.org/day.jpg", alt: "", width: 800, height: 600 },
          }
        : event,
  ),
  calendars: [...fixtureSnapshot.calendars, hostileCalendar],
};

const filterPage = `---
permalink: /filters/index.html
---
{% for calendar in portal.calendars %}{% set s = calendar | embedSnippets %}
<section>
<pre><code>{{ s.script }}</code></pre>
<pre><code>{{ s.iframe }}</code></pre>
<p>{{ s.previewUrl }}</p>
{{ calendar | oembedLink | safe }}
<p>{{ calendar | oembedUrl }}</p>
</section>
{% endfor %}
{% for p in portal.views.eventPages %}{% set e = p | eventEmbed %}
<section id="event-{{ p.event.id | segment }}">{% if e %}
<pre><code>{{ e.script }}</code></pre>
<pre><code>{{ e.iframe }}</code></pre>
<p>{{ e.previewUrl }}</p>{% endif %}
{{ p | eventOembedLink | safe }}
</section>
{% endfor %}
`;

describe("widget-plugin", () => {
  let built: BuiltWidgetSite;
  const read = (path: string) => readFileSync(join(built.outputDir, path), "utf8");

  beforeAll(async () => {
    built = await buildWidgetSite("https://example.org/agenda", {
      snapshot: hostile,
      templates: { "filters.njk": filterPage },
      env: { SITE_TITLE: "Agenda Zuid", REBUILD_INTERVAL_MINUTES: "30" },
    });
  });
  afterAll(() => built?.remove());

  it("should write the widget, its guide, the oEmbed answers and the public JSON", () => {
    const weird = "_54616c6b732026203c446562617465733e";
    const widgetFiles = listFilesSync(built.outputDir).filter((file) =>
      /^(api\/|embed|oembed\/|filters\/)/.test(file),
    );
    expect(widgetFiles).toEqual(
      [
        "api/calendars.json",
        "api/calendars/community/events.json",
        "api/changes.json",
        "api/calendars/culture/events.json",
        `api/calendars/${weird}/events.json`,
        "api/manifest.json",
        "embed.js",
        "embed/_all/index.html",
        "embed/community/index.html",
        "embed/community/events/e-allday/index.html",
        "embed/community/events/e-dst/index.html",
        "embed/community/events/e-past/index.html",
        "embed/culture/index.html",
        "embed/culture/events/_57656972642f49443f3c783e/index.html",
        "embed/culture/events/e-cancelled/index.html",
        "embed/culture/events/e-multiday/index.html",
        "embed/culture/events/e-online/index.html",
        "embed/culture/events/e-postponed/index.html",
        "embed/frame.js",
        "embed/docs.css",
        "embed/index.html",
        `embed/${weird}/index.html`,
        "embed/widget.css",
        "embed/widget.js",
        "filters/index.html",
        "oembed/community.json",
        "oembed/community/events/e-allday.json",
        "oembed/community/events/e-dst.json",
        "oembed/community/events/e-past.json",
        "oembed/culture.json",
        "oembed/culture/events/_57656972642f49443f3c783e.json",
        "oembed/culture/events/e-cancelled.json",
        "oembed/culture/events/e-multiday.json",
        "oembed/culture/events/e-online.json",
        "oembed/culture/events/e-postponed.json",
        `oembed/${weird}.json`,
        // The "when" pages' JSON, site-wide and per calendar (docs/public-json.md).
        ...["", "calendars/community/", "calendars/culture/", `calendars/${weird}/`].flatMap(
          (folder) =>
            ["today", "tomorrow", "weekend", "week", "next-week", "month"].map(
              (when) => `api/${folder}when/${when}.json`,
            ),
        ),
      ].sort(),
    );
  });

  it("should inline the labels and defaults into widget.js", () => {
    const js = read("embed/widget.js");
    expect(js).not.toContain("/*@CONFIG*/");
    expect(js).toContain('"nl":{"locale":"nl-NL"');
    expect(js).toContain('"defaults":{"count":5');
  });

  it("should answer oEmbed with a rich iframe for each calendar", () => {
    const answer = JSON.parse(read("oembed/culture.json"));
    expect(answer).toEqual({
      type: "rich",
      version: "1.0",
      title: "Events: Culture",
      provider_name: "Agenda Zuid",
      provider_url: "https://example.org/agenda/",
      cache_age: 1800,
      // WordPress's shape: a link to the page (hidden elsewhere), then an iframe with numbers for its size.
      html: '<blockquote hidden><a href="https://example.org/agenda/calendars/culture/">Events: Culture</a></blockquote><iframe src="https://example.org/agenda/embed/culture/" width="600" height="600" frameborder="0" scrolling="no" title="Events: Culture"></iframe>',
      width: 600,
      height: 600,
    });
  });

  it("should answer oEmbed for each event with its card, sized, with its image as thumbnail", () => {
    const walk = JSON.parse(read("oembed/community/events/e-dst.json"));
    expect(walk).toEqual({
      type: "rich",
      version: "1.0",
      title: "Night Walk Across the Clock Change",
      provider_name: "Agenda Zuid",
      provider_url: "https://example.org/agenda/",
      cache_age: 1800,
      // WordPress's shape, as a calendar's answer: the fallback link, then the iframe.
      html: '<blockquote hidden><a href="https://example.org/agenda/calendars/community/events/e-dst/">Night Walk Across the Clock Change</a></blockquote><iframe src="https://example.org/agenda/embed/community/events/e-dst/" width="480" height="440" frameborder="0" scrolling="no" title="Night Walk Across the Clock Change"></iframe>',
      width: 480,
      height: 440,
      thumbnail_url: mediaCopy,
      thumbnail_width: 1200,
      thumbnail_height: 630,
    });
    const offSite = JSON.parse(read("oembed/community/events/e-allday.json"));
    expect(offSite.thumbnail_url).toBeUndefined();
    const hostileTitle = JSON.parse(read("oembed/culture/events/_57656972642f49443f3c783e.json"));
    expect(hostileTitle.title).toBe('<script>alert("x")</script> & "Quotes" \u2028');
    expect(hostileTitle.html).toBe(
      '<blockquote hidden><a href="https://example.org/agenda/calendars/culture/events/_57656972642f49443f3c783e/">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot; \u2028</a></blockquote><iframe src="https://example.org/agenda/embed/culture/events/_57656972642f49443f3c783e/" width="480" height="220" frameborder="0" scrolling="no" title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quotes&quot; \u2028"></iframe>',
    );
    expect([hostileTitle.width, hostileTitle.height, hostileTitle.thumbnail_url]).toEqual([
      480,
      220,
      undefined,
    ]);
  });

  it("should give event pages their card's snippets and oEmbed link through filters", () => {
    const page = read("filters/index.html");
    const section = page.slice(page.indexOf('<section id="event-e-dst">'));
    for (const expected of [
      "&lt;a href=&quot;https://example.org/agenda/calendars/community/events/e-dst/&quot; data-ecp-fallback&gt;Night Walk Across the Clock Change&lt;/a&gt;",
      "&lt;script src=&quot;https://example.org/agenda/embed.js&quot; data-calendar=&quot;community&quot; data-event=&quot;e-dst&quot; async&gt;&lt;/script&gt;",
      "&lt;iframe src=&quot;https://example.org/agenda/embed/community/events/e-dst/&quot;",
      "<p>/agenda/embed/community/events/e-dst/</p>",
      '<link rel="alternate" type="application/json+oembed" href="https://example.org/agenda/oembed/community/events/e-dst.json" title="Night Walk Across the Clock Change">',
    ]) {
      expect(section).toContain(expected);
    }
    expect(page).not.toContain('<script>alert("x")');
  });

  it("should give templates the snippets, preview URL and oEmbed link through filters", () => {
    const page = read("filters/index.html");
    // Nunjucks escapes the snippet strings for display inside <pre><code>.
    for (const expected of [
      "&lt;script src=&quot;https://example.org/agenda/embed.js&quot; data-calendar=&quot;culture&quot; async&gt;&lt;/script&gt;",
      "<p>/agenda/embed/culture/</p>",
      '<link rel="alternate" type="application/json+oembed" href="https://example.org/agenda/oembed/culture.json" title="Events: Culture">',
      "<p>https://example.org/agenda/oembed/culture.json</p>",
    ]) {
      expect(page).toContain(expected);
    }
    expect(page).not.toContain("<b>Debates</b>");
  });

  it("should escape a hostile calendar name in every snippet", () => {
    const calendar = hostile.calendars[2];
    if (!calendar) throw new Error("fixture");
    const site = { urls: new SiteUrls("https://example.org"), lang: "en" };
    const { iframe, script } = embedSnippets(calendar, site);
    const title = "Events: Talks &quot;&amp;&quot; &lt;b&gt;Debates&lt;/b&gt;";
    expect(iframe).toContain(`title="${title}"`);
    expect(script).toContain(`data-ecp-fallback>${title}</a>`);
    expect(script).toContain('data-calendar="_54616c6b732026203c446562617465733e"');
    expect(oembedLinkTag(calendar, site, "static")).toContain(`title="${title}"`);
    expect(read("embed/_54616c6b732026203c446562617465733e/index.html")).toContain(
      "<title>Talks &quot;&amp;&quot; &lt;b&gt;Debates&lt;/b&gt; · Agenda Zuid</title>",
    );
  });

  it("should publish the same manifest counts as the events files it writes", () => {
    const manifest = JSON.parse(read("api/manifest.json"));
    for (const entry of manifest.calendars) {
      const calendars = JSON.parse(read("api/calendars.json")).calendars;
      const segment = calendars.find((c: { id: string }) => c.id === entry.id).segment;
      const events = JSON.parse(read(`api/calendars/${segment}/events.json`)).events;
      expect(events.length).toBe(entry.events);
    }
    expect(manifest.siteUrl).toBe("https://example.org/agenda");
  });
});
