import { readFileSync } from "node:fs";
import { WIDGET_LABELS } from "./labels.ts";
import { WIDGET_DEFAULTS, WIDGET_MAX_COUNT, WIDGET_MAX_QUERY } from "./options.ts";

/**
 * The browser files the widget plugin publishes, read from src/widget/browser.
 * They are hand-written, dependency-free scripts small enough to ship as they
 * are (the embed page's budget is 30 KB gzip, docs/widget.md).
 */
const CONFIG_MARKER = "/*@CONFIG*/ {}";

function read(name: string): string {
  return readFileSync(new URL(`./browser/${name}`, import.meta.url), "utf8");
}

let cache: {
  widgetJs: string;
  frameJs: string;
  widgetCss: string;
  embedJs: string;
  docsCss: string;
} | null = null;

export function widgetAssets(): {
  readonly widgetJs: string;
  /** The embed pages' messages to the framing page (embed.js's and WordPress's protocols). */
  readonly frameJs: string;
  readonly widgetCss: string;
  readonly embedJs: string;
  readonly docsCss: string;
} {
  if (cache) return cache;
  const source = read("widget.js");
  if (!source.includes(CONFIG_MARKER)) {
    throw new Error(`src/widget/browser/widget.js lost its ${CONFIG_MARKER} marker.`);
  }
  const config = JSON.stringify({
    labels: WIDGET_LABELS,
    defaults: WIDGET_DEFAULTS,
    maxCount: WIDGET_MAX_COUNT,
    maxQuery: WIDGET_MAX_QUERY,
  });
  cache = {
    widgetJs: source.replace(CONFIG_MARKER, () => config),
    frameJs: read("frame.js"),
    widgetCss: read("widget.css"),
    embedJs: read("embed.js"),
    docsCss: read("docs.css"),
  };
  return cache;
}
