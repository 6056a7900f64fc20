import { SUPPORTED_LANGUAGES } from "../config/site.ts";
import { loadMessages, translate } from "../i18n/messages.ts";
import { WHEN_MESSAGE_KEYS } from "../site/when/labels.ts";
import type { WhenKey } from "../site/when/ranges.ts";

/**
 * Interface text of the widget, per language. The embed page renders these
 * at build time, and the same object is inlined into /embed/widget.js so the
 * `lang` option can switch language without another request.
 */
export interface WidgetLabels {
  /** Intl locale used for dates and times (24-hour clock, day before month). */
  readonly locale: string;
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

const WIDGET_LANGUAGES = SUPPORTED_LANGUAGES;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

function widgetLabels(lang: WidgetLanguage): WidgetLabels {
  const m = loadMessages(lang);
  const text = (key: string) => translate(m, key);
  return {
    locale: text("defaultLocale"),
    upcoming: text("widgetUpcoming"),
    empty: text("widgetEmpty"),
    allEvents: text("widgetAllEvents"),
    cancelled: text("statusCancelled"),
    postponed: text("statusPostponed"),
    newDate: text("newDate"),
    online: text("online"),
    newTab: text("opensInNewTab"),
    previousMonth: text("widgetPreviousMonth"),
    nextMonth: text("widgetNextMonth"),
    localTime: text("widgetLocalTime"),
    yourTime: text("localTimeYours"),
    inZone: text("localTimeEventZone"),
    eventsOf: text("widgetEventsOf"),
    when: Object.fromEntries(
      Object.entries(WHEN_MESSAGE_KEYS).map(([key, names]) => [
        key,
        { name: text(names.name), empty: text(names.empty) },
      ]),
    ) as WidgetLabels["when"],
    whenNext: text("whenNext"),
    addToCalendar: text("addToCalendar"),
    calendars: text("calendars"),
  };
}

/** The widget's texts per language, from the site's UI strings (src/i18n). */
export const WIDGET_LABELS = Object.fromEntries(
  WIDGET_LANGUAGES.map((lang) => [lang, widgetLabels(lang)]),
) as Readonly<Record<WidgetLanguage, WidgetLabels>>;

/** The widget language for a BCP 47 tag ("nl-BE" -> "nl"); English when unsupported. */
export function widgetLanguage(tag: string | undefined): WidgetLanguage {
  const primary = (tag ?? "").split("-")[0]?.toLowerCase() ?? "";
  return (WIDGET_LANGUAGES as readonly string[]).includes(primary)
    ? (primary as WidgetLanguage)
    : "en";
}

/**
 * The Intl locale for dates: the site's own tag when it is of this language
 * (an "en-US" site keeps its US dates), otherwise the language's default.
 */
export function widgetLocale(lang: WidgetLanguage, siteTag: string | undefined): string {
  return siteTag && widgetLanguage(siteTag) === lang && siteTag.includes("-")
    ? siteTag
    : WIDGET_LABELS[lang].locale;
}
