import { SUPPORTED_LANGUAGES } from "../i18n/languages.ts";
import { WHEN_KEYS } from "../site/when/ranges.ts";

/**
 * The widget's options: URL parameters of /embed/{calendar}/ and `data-`
 * attributes of the embed.js script tag (`showTitle` is `data-show-title`).
 * The browser script (src/widget/browser/widget.ts) applies the same rules;
 * this list drives the build-time defaults and the /embed/ documentation page.
 * Any value outside these rules falls back to the default.
 */
export const WIDGET_DEFAULTS = {
  count: 5,
  view: "list",
  theme: "light",
  compact: false,
  showTitle: true,
  tz: "both",
} as const;

export const WIDGET_MAX_COUNT = 50;

/** Longest `q` the widget reads; longer values are ignored. */
export const WIDGET_MAX_QUERY = 100;

/** Height the iframe snippets and embed.js reserve before the content reports its own. */
export const WIDGET_INITIAL_HEIGHT = 600;

export interface WidgetOptionDoc {
  readonly name: string;
  readonly attribute: string;
  readonly values: string;
  readonly defaultValue: string;
  readonly description: string;
  readonly example: string;
}

export const WIDGET_OPTIONS: readonly WidgetOptionDoc[] = [
  {
    name: "count",
    attribute: "data-count",
    values: `whole number 1-${WIDGET_MAX_COUNT}`,
    defaultValue: String(WIDGET_DEFAULTS.count),
    description: "How many upcoming events the list shows.",
    example: "count=10",
  },
  {
    name: "view",
    attribute: "data-view",
    values: "list, month",
    defaultValue: WIDGET_DEFAULTS.view,
    description:
      "A list of upcoming events, or a month grid (a table with a row per week) with buttons for the previous and next month.",
    example: "view=month",
  },
  {
    name: "calendars",
    attribute: "data-calendars",
    values: "calendar segments, separated by commas",
    defaultValue: "every calendar",
    description:
      "The widget of several calendars (/embed/_all/): which calendars it merges, each event marked with its calendar's name and colour. Unknown ids are ignored; an empty value, or none known, shows every calendar. On the script tag, data-calendars without data-calendar makes this widget.",
    example: "calendars=culture,sport",
  },
  {
    name: "category",
    attribute: "data-category",
    values: "a category id",
    defaultValue: "all categories",
    description:
      "Only events of this category (the same ids as the site's category pages and search filters), in one calendar or across several. An id that no event shown carries is ignored. On the script tag without data-calendar, every calendar's events of the category.",
    example: "category=markets",
  },
  {
    name: "q",
    attribute: "data-q",
    values: `words, up to ${WIDGET_MAX_QUERY} characters`,
    defaultValue: "none",
    description:
      "Only events whose title, summary, place or category names contain every one of these words (capitals and accents ignored). Combines with category.",
    example: "q=family",
  },
  {
    name: "when",
    attribute: "data-when",
    values: WHEN_KEYS.join(", "),
    defaultValue: "none (upcoming events)",
    description:
      "Only the events on these days, as the site's Today, Tomorrow, This weekend, This week, Next week and This month pages list them (also those already over today), in the calendar's time zone; when none, the next event after them. Combines with category and q.",
    example: "when=weekend",
  },
  {
    name: "theme",
    attribute: "data-theme",
    values: "light, dark, auto",
    defaultValue: WIDGET_DEFAULTS.theme,
    description: "Colours; auto follows the visitor's system setting.",
    example: "theme=dark",
  },
  {
    name: "accent",
    attribute: "data-accent",
    values: "#rgb or #rrggbb (write # as %23 in a URL)",
    defaultValue: "the calendar's colour",
    description:
      "Colour of the event bars (in a widget of several calendars, each bar has its calendar's colour), heading rule and focus ring.",
    example: "accent=%23c2255c",
  },
  {
    name: "lang",
    attribute: "data-lang",
    values: SUPPORTED_LANGUAGES.join(", "),
    defaultValue: "the site's language",
    description: "Language of labels, dates and times.",
    example: "lang=nl",
  },
  {
    name: "compact",
    attribute: "data-compact",
    values: "true, false (or 1, 0)",
    defaultValue: String(WIDGET_DEFAULTS.compact),
    description: "Tighter spacing; hides places (and an event card's image).",
    example: "compact=true",
  },
  {
    name: "showTitle",
    attribute: "data-show-title",
    values: "true, false (or 1, 0)",
    defaultValue: String(WIDGET_DEFAULTS.showTitle),
    description: "Show the calendar's name above the events.",
    example: "showTitle=false",
  },
  {
    name: "tz",
    attribute: "data-tz",
    values: "both, event, local",
    defaultValue: WIDGET_DEFAULTS.tz,
    description:
      "Times in each event's own time zone, with the visitor's own time beside them where their device's time zone reads them differently (both); in the event's zone only (event); or in the visitor's time zone only (local).",
    example: "tz=local",
  },
];
