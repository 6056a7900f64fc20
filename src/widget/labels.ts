import { SUPPORTED_LANGUAGES } from "../config/site.ts";
import { loadMessages, translate } from "../i18n/messages.ts";
import { textDirection } from "../i18n/text-direction.ts";
import { WHEN_MESSAGE_KEYS } from "../site/when/labels.ts";
import type { WidgetLabels } from "./widget-config.ts";

const WIDGET_LANGUAGES = SUPPORTED_LANGUAGES;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

function widgetLabels(lang: WidgetLanguage): WidgetLabels {
  const m = loadMessages(lang);
  const text = (key: string) => translate(m, key);
  return {
    locale: text("defaultLocale"),
    dir: textDirection(lang),
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
