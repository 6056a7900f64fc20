/*
 * The one-line embed (docs/widget.md):
 *   <a href="{site}/calendars/{calendar}/" data-ecp-fallback>Events: …</a>
 *   <script src="{site}/embed.js" data-calendar="{calendar}" async></script>
 * Puts the widget's iframe where the script stands (in place of the fallback
 * link), passes the script's data- options as URL parameters, and keeps the
 * iframe as tall as its content. Each script tag gets its own iframe, so
 * several embeds on one page are independent.
 *
 * What it embeds: one calendar (data-calendar), one event's card
 * (data-calendar and data-event), or several calendars (data-calendars, or a
 * data-category without data-calendar). The same script defines
 * <event-calendar>, which embeds the same pages by the same mount().
 */

import { chosenLanguage } from "../../browser/site-language.ts";
import type { EmbedConfig } from "../widget-config.ts";

// The build writes the site's languages in its place (src/widget/assets.ts).
declare const EMBED_CONFIG: EmbedConfig;
const LANGUAGES = EMBED_CONFIG.languages;

/** How a script tag or an element embeds its page. */
interface Embedding {
  readonly title: string;
  /** The height to reserve before the page reports its own. */
  readonly height: string | null | undefined;
  /** Puts the iframe in the page. */
  readonly place: (iframe: HTMLIFrameElement) => void;
}

const OPTIONS = [
  "count",
  "view",
  "category",
  "calendars",
  "q",
  "theme",
  "accent",
  "lang",
  "compact",
  "showTitle",
  "tz",
  "when",
];
// Path segments are what src/model/url-scheme.ts produces; anything else is not ours.
const SEGMENT = /^[a-z0-9_-]{1,80}$/;
// The pages an embed may show: a calendar's, several calendars' (_all), an event's card.
const EMBED_PATH = /^embed\/[a-z0-9_-]{1,80}\/(?:events\/[a-z0-9_-]{1,80}\/)?$/;
const current = document.currentScript;
// currentScript is set while a classic (also async) script runs; the query
// covers loaders that run it some other way.
const scripts = current
  ? [current]
  : Array.from(
      document.querySelectorAll(
        "script[data-calendar][src], script[data-calendars][src], script[data-category][src]",
      ),
    );
for (const script of scripts) {
  if (script instanceof HTMLScriptElement && !script.dataset.ecpMounted) mountScript(script);
}
// The element needs only the script itself, with or without options.
const own = current || document.querySelector('script[src$="/embed.js"]');
if (own instanceof HTMLScriptElement) defineElement(new URL(".", own.src));

function mountScript(script: HTMLScriptElement): void {
  script.dataset.ecpMounted = "true";
  const base = new URL(".", script.src);
  const url = widgetUrl(base, (name) => script.dataset[name] ?? null);
  if (!url) return;
  const fallback = script.previousElementSibling;
  const hasFallback =
    fallback instanceof HTMLAnchorElement && fallback.hasAttribute("data-ecp-fallback");
  mount(base, url, {
    title: (hasFallback && fallback.textContent?.trim()) || script.dataset.title || "Events",
    height: script.dataset.height,
    place: (iframe) => {
      if (hasFallback) fallback.replaceWith(iframe);
      else script.parentNode?.insertBefore(iframe, script);
    },
  });
}

/**
 * The page to embed for a set of options (`read` gives an option's value,
 * null when absent), with the options as URL parameters; null when the
 * options name nothing to embed.
 */
function widgetUrl(base: URL, read: (name: string) => string | null | undefined): URL | null {
  const calendar = read("calendar");
  const event = read("event");
  let path = "";
  if (calendar != null) {
    if (!SEGMENT.test(calendar)) return null;
    if (event == null) path = `embed/${calendar}/`;
    else if (SEGMENT.test(event)) path = `embed/${calendar}/events/${event}/`;
    else return null;
  } else if (event == null && (read("calendars") != null || read("category") != null)) {
    path = "embed/_all/";
  } else {
    return null;
  }
  // A site in several languages: the pages of the language `lang` names (docs/widget.md, "Languages").
  const root = LANGUAGES?.sites[chosenLanguage(LANGUAGES, read("lang"))]?.root;
  const url = new URL(path, root === undefined ? base : new URL(root, base));
  for (const name of OPTIONS) {
    const value = read(name);
    if (value != null) url.searchParams.set(name, value);
  }
  return url;
}

/**
 * Puts the widget's iframe in the page and keeps it as tall as its content:
 * `base` is the widget's site (its origin checks every message), `url` the
 * page to embed. Script tags and <event-calendar> elements both mount here.
 */
function mount(base: URL, url: URL, how: Embedding): void {
  const id = `ecp-${Math.random().toString(36).slice(2, 10)}`;
  url.searchParams.set("id", id);

  const iframe = document.createElement("iframe");
  iframe.src = url.href;
  iframe.title = how.title;
  iframe.loading = "lazy";
  iframe.width = "100%";
  // Reserve room up front so the page does not jump when the widget loads.
  const reserved = Number(how.height);
  iframe.height = String(reserved >= 100 && reserved <= 5000 ? reserved : 600);
  iframe.setAttribute("scrolling", "no");
  iframe.style.border = "0";
  iframe.style.display = "block";
  iframe.style.width = "100%";
  iframe.style.overflow = "hidden";
  how.place(iframe);

  window.addEventListener("message", (event) => {
    // Only our own frame, from the widget's origin, may size it; any other
    // window (including the host page itself) is ignored.
    if (event.origin !== base.origin || event.source !== iframe.contentWindow) return;
    const message = event.data;
    if (message?.type !== "ecp:resize" || message.id !== id) return;
    const height = Math.ceil(Number(message.height));
    if (!(height > 0 && height <= 20000)) return;
    iframe.height = String(height);
    iframe.style.height = `${height}px`;
  });
}

/**
 * <event-calendar src="{site}/embed/culture/?count=3"><a href="…">Events</a></event-calendar>,
 * or with attributes that mirror the script's data- ones (calendar="culture"
 * count="3", show-title="false"). Its content is the fallback visitors
 * without JavaScript see; once defined, the element holds the iframe instead.
 * `src` must be an embed page of the site this script comes from (`base`).
 * The first site's embed.js on a page defines the element; another site's
 * calendars on the same page use its script tag.
 */
function defineElement(base: URL): void {
  if (!window.customElements || customElements.get("event-calendar")) return;
  class EventCalendarElement extends HTMLElement {
    connectedCallback() {
      // Moving the element in the page connects it again: it keeps its iframe.
      if (this.querySelector(":scope > iframe")) return;
      const src = this.getAttribute("src");
      const url =
        src == null
          ? widgetUrl(base, (name) => this.getAttribute(attributeName(name)))
          : embedPageUrl(base, src);
      if (!url) return;
      const fallback = this.querySelector("a");
      mount(base, url, {
        title: fallback?.textContent?.trim() || "Events",
        height: this.getAttribute("height"),
        place: (iframe) => {
          this.replaceChildren(iframe);
          this.style.display = "block";
        },
      });
    }
  }
  customElements.define("event-calendar", EventCalendarElement);
}

/** "showTitle" -> "show-title", as data-show-title. */
function attributeName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/**
 * `src` as a URL, when it is an embed page of the site at `base`; its query
 * holds the options (the page compares each with its allowlist).
 */
function embedPageUrl(base: URL, src: string): URL | null {
  let url: URL;
  try {
    url = new URL(src, document.baseURI);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  if (!EMBED_PATH.test(url.pathname.slice(base.pathname.length))) return null;
  url.hash = "";
  return url;
}
