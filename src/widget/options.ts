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

/**
 * An option as the guide (/embed/) documents it. Its texts are messages of
 * the site's language (src/i18n: `message` keys with their arguments); code
 * words (values such as "list, month", defaults such as "light") stay as
 * they are in every language.
 */
export type GuideText =
  | { readonly code: string }
  | { readonly message: string; readonly values?: Readonly<Record<string, number>> };

export interface WidgetOptionDoc {
  readonly name: string;
  readonly attribute: string;
  readonly values: GuideText;
  readonly defaultValue: GuideText;
  /** The message saying what it does. */
  readonly description: string;
  readonly example: string;
}

const BOOLEAN: GuideText = { message: "guideValueBoolean" };

export const WIDGET_OPTIONS: readonly WidgetOptionDoc[] = [
  {
    name: "count",
    attribute: "data-count",
    values: { message: "guideValueWholeNumber", values: { min: 1, max: WIDGET_MAX_COUNT } },
    defaultValue: { code: String(WIDGET_DEFAULTS.count) },
    description: "guideOptionCount",
    example: "count=10",
  },
  {
    name: "view",
    attribute: "data-view",
    values: { code: "list, month" },
    defaultValue: { code: WIDGET_DEFAULTS.view },
    description: "guideOptionView",
    example: "view=month",
  },
  {
    name: "calendars",
    attribute: "data-calendars",
    values: { message: "guideValueCalendarSegments" },
    defaultValue: { message: "guideDefaultEveryCalendar" },
    description: "guideOptionCalendars",
    example: "calendars=culture,sport",
  },
  {
    name: "category",
    attribute: "data-category",
    values: { message: "guideValueCategoryId" },
    defaultValue: { message: "guideDefaultAllCategories" },
    description: "guideOptionCategory",
    example: "category=markets",
  },
  {
    name: "q",
    attribute: "data-q",
    values: { message: "guideValueWords", values: { max: WIDGET_MAX_QUERY } },
    defaultValue: { message: "guideDefaultNone" },
    description: "guideOptionQ",
    example: "q=family",
  },
  {
    name: "when",
    attribute: "data-when",
    values: { code: WHEN_KEYS.join(", ") },
    defaultValue: { message: "guideDefaultUpcoming" },
    description: "guideOptionWhen",
    example: "when=weekend",
  },
  {
    name: "theme",
    attribute: "data-theme",
    values: { code: "light, dark, auto" },
    defaultValue: { code: WIDGET_DEFAULTS.theme },
    description: "guideOptionTheme",
    example: "theme=dark",
  },
  {
    name: "accent",
    attribute: "data-accent",
    values: { message: "guideValueColour" },
    defaultValue: { message: "guideDefaultCalendarColour" },
    description: "guideOptionAccent",
    example: "accent=%23c2255c",
  },
  {
    name: "lang",
    attribute: "data-lang",
    values: { code: SUPPORTED_LANGUAGES.join(", ") },
    defaultValue: { message: "guideDefaultSiteLanguage" },
    description: "guideOptionLang",
    example: "lang=nl",
  },
  {
    name: "compact",
    attribute: "data-compact",
    values: BOOLEAN,
    defaultValue: { code: String(WIDGET_DEFAULTS.compact) },
    description: "guideOptionCompact",
    example: "compact=true",
  },
  {
    name: "showTitle",
    attribute: "data-show-title",
    values: BOOLEAN,
    defaultValue: { code: String(WIDGET_DEFAULTS.showTitle) },
    description: "guideOptionShowTitle",
    example: "showTitle=false",
  },
  {
    name: "tz",
    attribute: "data-tz",
    values: { code: "both, event, local" },
    defaultValue: { code: WIDGET_DEFAULTS.tz },
    description: "guideOptionTz",
    example: "tz=local",
  },
];
