import type { SiteConfig } from "../config/site.ts";
import type { Calendar, PortalSnapshot } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import type { PublicJson } from "../outputs/public-json.ts";
import { type FileGroup, fileGroup, singleFile } from "../render/file-group.ts";
import { widgetAssets } from "./assets.ts";
import { renderEmbedDocsPage } from "./docs-page.ts";
import { renderEmbedPage } from "./embed-page.ts";
import { writeOembedJson } from "./snippets.ts";

/**
 * The embeddable widget's files (docs/widget.md): its scripts and styles,
 * the embedding guide, one embed page and one oEmbed answer per calendar.
 */
export function widgetFileGroups(
  data: PortalSnapshot,
  site: Pick<SiteConfig, "url" | "urls" | "title" | "lang" | "now" | "refreshMinutes">,
  /** The published window of each calendar, as the public JSON has it. */
  json: Pick<PublicJson, "events">,
): readonly FileGroup[] {
  const assets = widgetAssets();
  return [
    singleFile("widget", paths.embedScript(), () => assets.embedJs),
    singleFile("widget", paths.widgetAsset("widget.js"), () => assets.widgetJs),
    singleFile("widget", paths.widgetAsset("frame.js"), () => assets.frameJs),
    singleFile("widget", paths.widgetAsset("widget.css"), () => assets.widgetCss),
    singleFile("widget", paths.widgetAsset("docs.css"), () => assets.docsCss),
    singleFile("widget", `${paths.embedGuide()}index.html`, () =>
      renderEmbedDocsPage(data.calendars, site),
    ),
    fileGroup<Calendar>({
      phase: "widget",
      name: "embed page",
      items: data.calendars,
      path: (calendar) => `${paths.embed(calendar.id)}index.html`,
      render: (calendar) => renderEmbedPage({ calendar, events: json.events(calendar.id), site }),
    }),
    // The oEmbed answers count with the public JSON (docs/performance.md).
    fileGroup<Calendar>({
      phase: "json",
      name: "oembed",
      items: data.calendars,
      path: (calendar) => paths.oembed(calendar.id),
      render: (calendar) => writeOembedJson(calendar, site),
    }),
  ];
}
