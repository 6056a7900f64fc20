import { type HeaderRule, pathPattern } from "./headers.ts";

/**
 * netlify.toml's rules for the folders of a site's other languages
 * (SITE_LANGUAGES, docs/translating.md): each language is a whole site in
 * its folder (`/fr/`), whose pages need the policy, framing and types the
 * root's get. A rule whose path starts with `/*` matches in every folder
 * already (`/*`, `/*.ics`, `/*\/feed.xml`); each other rule gets a copy in
 * each folder (`/calendars/*` as `/fr/calendars/*`), which matches only
 * there, so no path gets a header from two rules that the root's paths do
 * not. netlify.toml is a static file that cannot know the languages: the
 * copies go where the build writes the site's own rules (`_headers` for
 * Netlify and Cloudflare Pages, src/hosts/host-files.ts) and to every other
 * form of them (`npm run headers`, `npm run preview`).
 */
export function languageFolderRules(
  rules: readonly HeaderRule[],
  /** The folders of the languages but the root's ("fr/", "pt-br/"). */
  folders: readonly string[],
): HeaderRule[] {
  return folders.flatMap((folder) =>
    rules
      .filter((rule) => !rule.for.startsWith("/*") && !rule.folder)
      .map((rule): HeaderRule => {
        const path = `/${folder.replace(/\/+$/, "")}${rule.for}`;
        return { ...rule, for: path, pattern: pathPattern(path), folder };
      }),
  );
}
