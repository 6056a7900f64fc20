import type { TextDirection } from "../i18n/text-direction.ts";
import type { WhenKey } from "../site/when/ranges.ts";
import type { WIDGET_DEFAULTS } from "./options.ts";

/**
 * Interface text of the widget, per language (src/widget/labels.ts). The
 * embed page renders these at build time, and the same object is given to
 * /embed/widget.js so the `lang` option can switch language without another
 * request.
 */
export interface WidgetLabels {
  /** Intl locale used for dates and times (24-hour clock, day before month). */
  readonly locale: string;
  /** Which way the language runs (src/i18n/text-direction.ts): the widget's `<html dir>`. */
  readonly dir: TextDirection;
  /**
   * The ISO weekday (1 Monday ... 7 Sunday) the month view's weeks start on,
   * the locale's CLDR first day (src/site/when/week-rules.ts): Intl's week
   * data is missing from some browsers, so the build writes it.
   */
  readonly firstDay: number;
  readonly upcoming: string;
  readonly empty: string;
  readonly allEvents: string;
  readonly cancelled: string;
  readonly postponed: string;
  /** Badge of an event that got a new date recently (public JSON `newDate`). */
  readonly newDate: string;
  readonly online: string;
  readonly newTab: string;
  readonly previousMonth: string;
  readonly nextMonth: string;
  readonly localTime: string;
  /** The visitor's own time beside an event's (tz=both): "{time} your time ({zone})". */
  readonly yourTime: string;
  /** The event's zone beside its time when the visitor's differs: "in {zone}". */
  readonly inZone: string;
  /** Prefix of the iframe title and the fallback link: "Events: Culture". */
  readonly eventsOf: string;
  /** The `when` option's list heading and empty state, per value (src/site/when). */
  readonly when: Readonly<Record<WhenKey, { readonly name: string; readonly empty: string }>>;
  /** "Next:" before the next event when a `when` range is empty. */
  readonly whenNext: string;
  /** The event card's link to the event's .ics download. */
  readonly addToCalendar: string;
  /** Heading of the calendars a widget of several calendars shows. */
  readonly calendars: string;
}

/**
 * What the build writes into /embed/widget.js (src/widget/assets.ts): the
 * labels of every language and the options' rules (src/widget/options.ts).
 */
export interface WidgetConfig {
  readonly labels: { readonly en: WidgetLabels } & Readonly<Record<string, WidgetLabels>>;
  readonly defaults: typeof WIDGET_DEFAULTS;
  readonly maxCount: number;
  readonly maxQuery: number;
  /** A site in several languages: where each is; absent for a site in one. */
  readonly languages?: WidgetLanguages;
}

/**
 * The languages of a site published in several (SITE_LANGUAGES): the
 * widget's `lang` option shows the pages of the language it names, and so
 * that language's texts and data (docs/widget.md, "Languages").
 */
export interface WidgetLanguages {
  /** Each language's tag and its site's root as a link by path ("/", "/fr/"), the root's first. */
  readonly sites: readonly { readonly lang: string; readonly root: string }[];
  /** The language whose files these are (an index of `sites`). */
  readonly current: number;
}

/** What the build writes into /embed.js (src/widget/assets.ts). */
export interface EmbedConfig {
  /** As in WidgetConfig; null for a site in one language. */
  readonly languages: WidgetLanguages | null;
}
