import type { MapSettings } from "../config/map.ts";
import { withEmbedPolicy } from "./embed-policy.ts";
import { defaultHeaderRules, type HeaderRule } from "./headers.ts";
import { languageFolderRules } from "./language-rules.ts";
import { withMapTiles } from "./map-policy.ts";

/**
 * netlify.toml's rules with what depends on the site: the embed pages'
 * policy naming the origins the site is served at (SITE_URL's, and a local
 * server's: embed-policy.ts) and MAP_TILES_URL's tile server on the place
 * pages (map-policy.ts). What the build writes for a host, `npm run
 * headers`, `npm run preview` and `npm start` all send these.
 */
export function siteHeaderRules(
  site: {
    readonly url: string;
    readonly map: MapSettings | null;
    /** The site's languages (SITE_LANGUAGES): each one's folder gets the rules too. */
    readonly languages?: readonly { readonly folder: string }[];
  },
  servedAt: readonly string[] = [],
): readonly HeaderRule[] {
  const rules = withEmbedPolicy(withMapTiles(defaultHeaderRules(), site.map), [
    site.url,
    ...servedAt,
  ]);
  const folders = (site.languages ?? []).flatMap((language) =>
    language.folder ? [language.folder] : [],
  );
  return folders.length > 0 ? [...rules, ...languageFolderRules(rules, folders)] : rules;
}

/**
 * The origin a browser asked a local server for, from the request's Host
 * header ("localhost:8080" -> "http://localhost:8080"), so 'self' and the
 * named origin agree however the server is reached; undefined for a Host
 * that is not one host and port.
 */
export function requestOrigin(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return url.host === host.toLowerCase() ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
