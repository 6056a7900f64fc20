import type { Announcement, RemovedEventRecord } from "../changes/published-state.ts";
import { getSiteConfig, type SiteConfig } from "../config/site.ts";
import { timed } from "../metrics.ts";
import type { Calendar, Category, PortalSnapshot } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import {
  publicJsonPaths,
  publishedEvents,
  writeCalendarEventsJson,
  writeCalendarsJson,
  writeChangesJson,
  writeManifestJson,
} from "../outputs/public-json.ts";
import { widgetAssets } from "../widget/assets.ts";
import { renderEmbedDocsPage } from "../widget/docs-page.ts";
import { renderEmbedPage } from "../widget/embed-page.ts";
import {
  type EmbedSnippets,
  embedSnippets,
  oembedLinkTag,
  oembedPath,
  writeOembedJson,
} from "../widget/snippets.ts";

/**
 * Publishes the embeddable widget, its oEmbed answers and the public JSON
 * mirror (docs/widget.md, docs/public-json.md) as virtual templates, and
 * gives the site's templates the filters for the calendar page's "Embed"
 * section. Reads the global data `portal` (the snapshot) and `site` (SiteConfig).
 *
 * Writes: /embed/index.html, /embed/{calendar}/index.html, /embed/widget.js,
 * /embed/widget.css, /embed/docs.css, /embed.js, /oembed/{calendar}.json,
 * /api/calendars.json, /api/calendars/{calendar}/events.json, /api/manifest.json,
 * /api/changes.json.
 */

/** The part of Eleventy's configuration API this plugin uses. */
export interface EleventyConfigLike {
  addTemplate(path: string, content: unknown, data?: unknown): void;
  addTemplateFormats(formats: string): void;
  addFilter(name: string, filter: (this: unknown, ...args: never[]) => unknown): void;
}

export interface WidgetPluginOptions {
  /** Settings for filters called where no `site` data is in scope; defaults to the environment. */
  readonly site?: SiteConfig;
}

interface TemplateData {
  readonly portal: PortalSnapshot & {
    readonly categories?: readonly Category[];
    /** From src/changes (absent in data made without it). */
    readonly announcements?: readonly Announcement[];
    readonly removedRecords?: readonly RemovedEventRecord[];
  };
  readonly site: SiteConfig;
  readonly calendar: Calendar;
}

export function widgetPlugin(
  eleventyConfig: EleventyConfigLike,
  options: WidgetPluginOptions = {},
) {
  // The site may restrict its template formats; the virtual templates need this one.
  eleventyConfig.addTemplateFormats("11ty.js");

  const page = (
    name: string,
    permalink: string | ((data: TemplateData) => string),
    render: (data: TemplateData) => string,
    perCalendar = false,
  ) =>
    eleventyConfig.addTemplate(`ecp-widget/${name}.11ty.js`, {
      data: {
        permalink,
        eleventyExcludeFromCollections: true,
        ...(perCalendar
          ? { pagination: { data: "portal.calendars", size: 1, alias: "calendar" } }
          : {}),
      },
      // The public JSON mirror and oEmbed answers are "json" in the build metrics.
      render: (data: TemplateData) =>
        timed(name.startsWith("api-") || name === "oembed" ? "json" : "widget", () => render(data)),
    });

  const assets = widgetAssets();
  page("embed-js", "/embed.js", () => assets.embedJs);
  page("widget-js", "/embed/widget.js", () => assets.widgetJs);
  page("widget-css", "/embed/widget.css", () => assets.widgetCss);
  page("docs-css", "/embed/docs.css", () => assets.docsCss);
  page("embed-docs", "/embed/index.html", (d) => renderEmbedDocsPage(d.portal.calendars, d.site));
  page(
    "embed-page",
    (d) => `${paths.embed(d.calendar.id)}index.html`,
    (d) =>
      renderEmbedPage({
        calendar: d.calendar,
        events: publishedEvents(d.portal, d.calendar.id, d.site),
        site: d.site,
      }),
    true,
  );
  page(
    "oembed",
    (d) => oembedPath(d.calendar.id),
    (d) => writeOembedJson(d.calendar, d.site),
    true,
  );
  page("api-calendars", publicJsonPaths.calendars(), (d) => writeCalendarsJson(d.portal, d.site));
  page("api-manifest", publicJsonPaths.manifest(), (d) => writeManifestJson(d.portal, d.site));
  page("api-changes", publicJsonPaths.changes(), (d) =>
    writeChangesJson({
      announcements: d.portal.announcements ?? [],
      removedRecords: d.portal.removedRecords ?? [],
    }),
  );
  page(
    "api-events",
    (d) => publicJsonPaths.events(d.calendar.id),
    (d) => writeCalendarEventsJson(d.portal, d.calendar.id, d.site),
    true,
  );

  let fallbackSite: SiteConfig | undefined = options.site;
  const siteOf = (self: unknown): SiteConfig => {
    const ctx = (self as { ctx?: { site?: SiteConfig } } | undefined)?.ctx;
    if (ctx?.site?.url) return ctx.site;
    fallbackSite ??= getSiteConfig();
    return fallbackSite;
  };
  const calendarOf = (self: unknown, calendar: Calendar | string): Calendar => {
    if (typeof calendar !== "string") return calendar;
    const ctx = (self as { ctx?: { portal?: PortalSnapshot } } | undefined)?.ctx;
    const found = ctx?.portal?.calendars.find((c) => c.id === calendar);
    if (!found) throw new Error(`Unknown calendar id ${JSON.stringify(calendar)}.`);
    return found;
  };

  eleventyConfig.addFilter(
    "embedSnippets",
    function (this: unknown, calendar: Calendar | string): EmbedSnippets {
      return embedSnippets(calendarOf(this, calendar), siteOf(this));
    },
  );
  eleventyConfig.addFilter("oembedLink", function (this: unknown, calendar: Calendar | string) {
    return oembedLinkTag(calendarOf(this, calendar), siteOf(this));
  });
  eleventyConfig.addFilter("oembedUrl", function (this: unknown, calendar: Calendar | string) {
    return siteOf(this).url + oembedPath(calendarOf(this, calendar).id);
  });
}

export default widgetPlugin;
