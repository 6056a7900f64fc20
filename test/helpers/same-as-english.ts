import type { SupportedLanguage } from "../../src/i18n/languages.ts";
import { messageSource } from "../../src/i18n/messages.ts";

/*
 * The messages a language writes exactly as English does: names of products
 * and formats ("Google Maps", "Outlook.com", "oEmbed"), a placeholder alone,
 * and words the language shares with English (Dutch "Filters", "Later",
 * French "Date"). Any other message equal to the English one was left
 * untranslated. A translator who finds a new one adds its key here, after a
 * native speaker's review (docs/translating.md).
 */
const NAMES = [
  "outlookCalendar",
  "office365Calendar",
  "howtoOutlookName",
  "howtoThunderbirdName",
  "howtoAndroidName",
  "storeFDroid",
  "storeGooglePlay",
  "directionsOsm",
  "guideOembedHeading",
];

export const SAME_AS_ENGLISH: Readonly<
  Record<Exclude<SupportedLanguage, "en">, readonly string[]>
> = {
  nl: [
    ...NAMES,
    "apWebsite",
    "home",
    "nextPage",
    "online",
    "attendanceOnline",
    "localTimeEventZone",
    "feeds",
    "filters",
    "directionsGoogle",
  ],
  de: [
    ...NAMES,
    "apWebsite",
    "online",
    "attendanceOnline",
    "localTimeEventZone",
    "feeds",
    "directionsGoogle",
  ],
  fr: [...NAMES, "filterWhen", "guideOptionsHeading", "directionsGoogle"],
  es: [...NAMES, "googleCalendar", "howtoGoogleName", "directionsGoogle", "subscribeSeriesHeading"],
  it: [
    ...NAMES,
    "home",
    "online",
    "attendanceOnline",
    "localTimeEventZone",
    "googleCalendar",
    "howtoGoogleName",
    "directionsGoogle",
  ],
  pt: [...NAMES, "feeds", "directionsGoogle"],
  pl: [...NAMES, "online", "attendanceOnline"],
  ar: NAMES,
  ja: NAMES,
};

/** The keys of a language's messages that are the English ones word for word. */
export function keysSameAsEnglish(language: SupportedLanguage): string[] {
  const english = messageSource("en");
  const own = messageSource(language);
  return Object.keys(english).filter((key) => own[key] === english[key]);
}

/** The texts a language writes itself: its messages, less those left as English without a reason. */
export function ownMessages(language: SupportedLanguage): string[] {
  if (language === "en") return Object.values(messageSource("en"));
  const allowed = new Set(SAME_AS_ENGLISH[language]);
  const same = new Set(keysSameAsEnglish(language).filter((key) => !allowed.has(key)));
  return Object.entries(messageSource(language))
    .filter(([key]) => !same.has(key))
    .map(([, message]) => message);
}
