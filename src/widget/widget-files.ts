import type { SiteConfig } from "../config/site.ts";
import type { Calendar, CalendarEvent, PortalSnapshot } from "../model/types.ts";
import { paths, SiteUrls } from "../model/url-scheme.ts";
import type { PublicJson } from "../outputs/public-json.ts";
import { type FileGroup, fileGroup, singleFile } from "../render/file-group.ts";
import type { EventPage } from "../site/views.ts";
import { renderAllCalendarsPage } from "./all-calendars/all-calendars-page.ts";
import { widgetAssets } from "./assets.ts";
import { renderEmbedDocsPage } from "./docs-page.ts";
import { renderEmbedPage } from "./embed-page.ts";
import { eventCardFileGroups } from "./event-card/event-card-files.ts";
import type { EmbedThumbnail } from "./event-card/event-card-snippets.ts";
import { writeOembedJson } from "./snippets.ts";
import type { WidgetLanguages } from "./widget-config.ts";

export interface WidgetEvents {
  /** The site's event pages: each gets a card to embed (unless EVENT_EMBEDS=off). */
  readonly pages: readonly EventPage[];
  /** An event's .ics as a data: URL, for EVENT_ICS=inline. */
  readonly inlineIcs: (event: CalendarEvent) => string;
  /** An event's share card (src/cards), the thumbnail its oEmbed answer names; none without cards. */
  readonly shareCard?: (event: CalendarEvent) => EmbedThumbnail | null;
}

/**
 * The embeddable widget's files (docs/widget.md): its scripts and styles,
 * the embedding guide, one embed page and one oEmbed answer per calendar,
 * the page of several calendars, and a card and its oEmbed answer per event.
 */
export function widgetFileGroups(
  data: PortalSnapshot,
  site: Pick<
    SiteConfig,
    | "url"
    | "urls"
    | "title"
    | "lang"
    | "now"
    | "timeZone"
    | "refreshMinutes"
    | "eventIcs"
    | "eventEmbeds"
    | "languages"
    | "contentLang"
  >,
  /** The published window of each calendar, as the public JSON has it. */
  json: Pick<PublicJson, "events">,
  events: WidgetEvents,
): readonly FileGroup[] {
  const languages = widgetLanguages(site);
  // The scripts and styles are made from the code and the site's languages alone: kept as
  // published while those are the same, and bundled only when one is written.
  let assets: ReturnType<typeof widgetAssets> | undefined;
  const asset = (path: string, pick: (made: ReturnType<typeof widgetAssets>) => string) =>
    singleFile(
      "widget",
      path,
      () => {
        assets ??= widgetAssets(languages);
        return pick(assets);
      },
      () => JSON.stringify(languages),
    );
  return [
    asset(paths.embedScript(), (made) => made.embedJs),
    asset(paths.widgetAsset("widget.js"), (made) => made.widgetJs),
    asset(paths.widgetAsset("frame.js"), (made) => made.frameJs),
    asset(paths.widgetAsset("widget.css"), (made) => made.widgetCss),
    asset(paths.widgetAsset("docs.css"), (made) => made.docsCss),
    singleFile("widget", `${paths.embedGuide()}index.html`, () =>
      renderEmbedDocsPage(
        data.calendars,
        site,
        events.pages.find((page) => !page.event.history?.removed),
      ),
    ),
    fileGroup<Calendar>({
      phase: "widget",
      name: "embed page",
      items: data.calendars,
      path: (calendar) => `${paths.embed(calendar.id)}index.html`,
      render: (calendar) => renderEmbedPage({ calendar, events: json.events(calendar.id), site }),
    }),
    singleFile("widget", `${paths.embedCalendars()}index.html`, () =>
      renderAllCalendarsPage({
        calendars: data.calendars,
        eventsOf: (id) => json.events(id),
        site,
      }),
    ),
    // The oEmbed answers count with the public JSON (docs/performance.md).
    fileGroup<Calendar>({
      phase: "json",
      name: "oembed",
      items: data.calendars,
      path: (calendar) => paths.oembed(calendar.id),
      render: (calendar) => writeOembedJson(calendar, site),
    }),
    ...eventCardFileGroups(events.pages, site, events.inlineIcs, events.shareCard),
  ];
}

/**
 * The site's languages as the widget's scripts read them (each language's
 * site's root by path, and which is this one's); null for a site in one.
 */
export function widgetLanguages(
  site: Pick<SiteConfig, "url" | "languages">,
): WidgetLanguages | null {
  if (site.languages.length < 2) return null;
  return {
    sites: site.languages.map((language) => ({
      lang: language.lang,
      root: new SiteUrls(language.url).href("/"),
    })),
    current: Math.max(
      0,
      site.languages.findIndex((language) => language.url === site.url),
    ),
  };
}
