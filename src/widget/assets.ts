import { readFileSync } from "node:fs";
import { type BrowserScript, browserBundle } from "../bundle/browser-bundle.ts";
import { WIDGET_LABELS } from "./labels.ts";
import { WIDGET_DEFAULTS, WIDGET_MAX_COUNT, WIDGET_MAX_QUERY } from "./options.ts";
import type { WidgetConfig } from "./widget-config.ts";

/**
 * The browser files the widget plugin publishes: the scripts of
 * src/widget/browser, bundled (src/bundle/browser-bundle.ts), and its
 * stylesheets. Every script is a classic one, as the embed pages and the
 * embedding sites load them: embed.js finds its own tag through
 * document.currentScript, which modules do not have.
 */
const SCRIPTS = {
  widget: { entry: "src/widget/browser/widget.ts", kind: "classic" },
  frame: { entry: "src/widget/browser/frame.ts", kind: "classic" },
  embed: { entry: "src/widget/browser/embed.ts", kind: "classic" },
} as const satisfies Record<string, BrowserScript>;

/** Where widget.ts reads its configuration (`declare const WIDGET_CONFIG`): the build writes it there. */
const CONFIG_NAME = "WIDGET_CONFIG";

function read(name: string): string {
  return readFileSync(new URL(`./browser/${name}`, import.meta.url), "utf8");
}

let styles: { widgetCss: string; docsCss: string } | null = null;
let configJson: string | null = null;

export function widgetAssets(): {
  readonly widgetJs: string;
  /** The embed pages' messages to the framing page (embed.js's and WordPress's protocols). */
  readonly frameJs: string;
  readonly widgetCss: string;
  readonly embedJs: string;
  readonly docsCss: string;
} {
  styles ??= { widgetCss: read("widget.css"), docsCss: read("docs.css") };
  return {
    widgetJs: withConfig(browserBundle(SCRIPTS.widget)),
    frameJs: browserBundle(SCRIPTS.frame),
    embedJs: browserBundle(SCRIPTS.embed),
    ...styles,
  };
}

/**
 * widget.js with its configuration written in, as JSON: the labels of every
 * language, so the `lang` option switches language without another request,
 * and the options' rules, from the modules the build renders with.
 */
function withConfig(code: string): string {
  const uses = code.match(new RegExp(`\\b${CONFIG_NAME}\\b`, "g"))?.length ?? 0;
  if (uses !== 1) {
    throw new Error(
      `The widget's bundle names ${CONFIG_NAME} ${uses} times, where once is expected.`,
    );
  }
  configJson ??= JSON.stringify({
    labels: WIDGET_LABELS,
    defaults: WIDGET_DEFAULTS,
    maxCount: WIDGET_MAX_COUNT,
    maxQuery: WIDGET_MAX_QUERY,
  } satisfies WidgetConfig);
  const json = configJson;
  return code.replace(CONFIG_NAME, () => json);
}
