import { fill } from "./fill.ts";

/**
 * A counted label in the page's language: the build hands the plural forms
 * of a message ({ one: "{count} event found", other: "{count} events found" },
 * src/i18n/browser-patterns.ts), the browser picks one by CLDR's rules
 * (Intl.PluralRules: Polish "few" for 2, "many" for 5) and writes the count
 * as the locale writes numbers. An exact form ("=0") wins over the rules,
 * as in ICU MessageFormat.
 */
export function pluralText(
  forms: Readonly<Record<string, string>>,
  count: number,
  locale: string,
): string {
  const form =
    forms[`=${count}`] ?? forms[new Intl.PluralRules(locale).select(count)] ?? forms.other ?? "";
  return fill(form, { count: new Intl.NumberFormat(locale).format(count) });
}

/** Plural forms as the build wrote them into a data- attribute (JSON); none if unreadable. */
export function pluralForms(json: string | undefined): Readonly<Record<string, string>> {
  try {
    const forms: unknown = JSON.parse(json || "{}");
    if (typeof forms !== "object" || forms === null) return {};
    return Object.fromEntries(
      Object.entries(forms).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    );
  } catch {
    return {};
  }
}
