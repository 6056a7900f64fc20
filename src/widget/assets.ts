import { readFileSync } from "node:fs";
import { type BrowserScript, browserBundle } from "../bundle/browser-bundle.ts";
import { WIDGET_LABELS } from "./labels.ts";
import { WIDGET_DEFAULTS, WIDGET_MAX_COUNT, WIDGET_MAX_QUERY } from "./options.ts";
import type { EmbedConfig, WidgetConfig, WidgetLanguages } from "./widget-config.ts";

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
/** Where embed.ts reads its own (`declare const EMBED_CONFIG`). */
const EMBED_CONFIG_NAME = "EMBED_CONFIG";

function read(name: string): string {
  return readFileSync(new URL(`./browser/${name}`, import.meta.url), "utf8");
}

let styles: { widgetCss: string; docsCss: string } | null = null;
/** The configurations written in, by the languages they name (one per language of a build). */
const configJson = new Map<string, string>();

/**
 * `languages`: the site's, in a site of several (each language's files name
 * the others', src/widget/widget-config.ts); null for a site in one.
 */
export function widgetAssets(languages: WidgetLanguages | null = null): {
  readonly widgetJs: string;
  /** The embed pages' messages to the framing page (embed.js's and WordPress's protocols). */
  readonly frameJs: string;
  readonly widgetCss: string;
  readonly embedJs: string;
  readonly docsCss: string;
} {
  styles ??= { widgetCss: read("widget.css"), docsCss: read("docs.css") };
  const embed: EmbedConfig = { languages };
  return {
    widgetJs: withConfig(browserBundle(SCRIPTS.widget), CONFIG_NAME, () => ({
      labels: WIDGET_LABELS,
      defaults: WIDGET_DEFAULTS,
      maxCount: WIDGET_MAX_COUNT,
      maxQuery: WIDGET_MAX_QUERY,
      ...(languages ? { languages } : {}),
    })),
    frameJs: browserBundle(SCRIPTS.frame),
    embedJs: withConfig(browserBundle(SCRIPTS.embed), EMBED_CONFIG_NAME, () => embed),
    ...styles,
  };
}

/**
 * A script with its configuration written in, as JSON: widget.js gets the
 * labels of every language, so the `lang` option switches language without
 * another request, and the options' rules, from the modules the build
 * renders with; both get the site's languages.
 */
function withConfig(code: string, name: string, config: () => WidgetConfig | EmbedConfig): string {
  const uses = code.match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
  if (uses !== 1) {
    throw new Error(`The widget's bundle names ${name} ${uses} times, where once is expected.`);
  }
  const made = config();
  const key = `${name}\u0000${JSON.stringify("languages" in made ? made.languages : null)}`;
  let json = configJson.get(key);
  if (json === undefined) {
    json = JSON.stringify(made);
    configJson.set(key, json);
  }
  const written = json;
  return code.replace(name, () => written);
}
