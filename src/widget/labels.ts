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
  readonly online: string;
  readonly newTab: string;
  readonly previousMonth: string;
  readonly nextMonth: string;
  readonly localTime: string;
  /** Prefix of the iframe title and the fallback link: "Events: Culture". */
  readonly eventsOf: string;
}

export const WIDGET_LANGUAGES = ["en", "nl"] as const;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

export const WIDGET_LABELS: Readonly<Record<WidgetLanguage, WidgetLabels>> = {
  en: {
    locale: "en-GB",
    upcoming: "Upcoming events",
    empty: "No upcoming events.",
    allEvents: "All events",
    cancelled: "Cancelled",
    postponed: "Postponed",
    online: "Online",
    newTab: "(opens in a new tab)",
    previousMonth: "Previous month",
    nextMonth: "Next month",
    localTime: "Times are shown in your time zone.",
    eventsOf: "Events",
  },
  nl: {
    locale: "nl-NL",
    upcoming: "Komende activiteiten",
    empty: "Geen komende activiteiten.",
    allEvents: "Alle activiteiten",
    cancelled: "Geannuleerd",
    postponed: "Uitgesteld",
    online: "Online",
    newTab: "(opent in een nieuw tabblad)",
    previousMonth: "Vorige maand",
    nextMonth: "Volgende maand",
    localTime: "Tijden staan in uw tijdzone.",
    eventsOf: "Activiteiten",
  },
};

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
