import {
  defaultTagOf,
  isPseudoLocale,
  languageOf,
  SUPPORTED_LANGUAGES,
  type SupportedLanguage,
} from "../i18n/languages.ts";
import { type Messages, messagesFor } from "../i18n/messages.ts";
import { textDirection } from "../i18n/text-direction.ts";
import { WHEN_MESSAGE_KEYS } from "../site/when/labels.ts";
import { weekRules } from "../site/when/week-rules.ts";
import type { WidgetLabels } from "./widget-config.ts";

export type WidgetLanguage = SupportedLanguage;

function widgetLabels(m: Messages): WidgetLabels {
  const text = (key: string) => m.format(key);
  return {
    locale: m.locale,
    firstDay: weekRules(m.locale).firstDay,
    dir: textDirection(m.locale),
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
    yourTime: m.pattern("localTimeYours"),
    inZone: m.pattern("localTimeEventZone"),
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

/** The widget's texts per language, from the site's messages (src/i18n). */
export const WIDGET_LABELS = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((lang) => [lang, widgetLabels(messagesFor(defaultTagOf(lang)))]),
) as Readonly<Record<WidgetLanguage, WidgetLabels>>;

/** The widget language for a BCP 47 tag ("nl-BE" -> "nl"); English when unsupported. */
export function widgetLanguage(tag: string | undefined): WidgetLanguage {
  return languageOf(tag) ?? "en";
}

let pseudoLabels: WidgetLabels | undefined;

/**
 * The labels the build writes into a site's widget pages: its language's,
 * or, for the pseudo-locale (docs/translating.md), its pseudo-localized
 * English, so that a pseudo-locale build shows the widget's own texts too.
 */
export function siteWidgetLabels(siteTag: string): WidgetLabels {
  if (!isPseudoLocale(siteTag)) return WIDGET_LABELS[widgetLanguage(siteTag)];
  pseudoLabels ??= widgetLabels(messagesFor(siteTag));
  return pseudoLabels;
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
