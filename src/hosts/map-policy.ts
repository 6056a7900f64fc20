import type { MapSettings } from "../config/map.ts";
import { defaultHeaderRules, type HeaderRule } from "./headers.ts";

/**
 * The place pages' Content-Security-Policy with the tile server of
 * MAP_TILES_URL (docs/configuration.md, "Maps"): its origin is added to
 * `img-src` of the rules for `/places/*` when that directive does not admit
 * it yet, and nowhere else. netlify.toml's `img-src` admits every https
 * image (event images the build could not copy keep their address), so an
 * https tile server needs no change; one on this machine over http (a trial,
 * a test) is added here, for what the build writes for other hosts
 * (`_headers`, the pages' policy meta), `npm run headers` and `npm run preview`.
 */

const PLACE_PAGES = "/places/";

export function withMapTiles(
  rules: readonly HeaderRule[] = defaultHeaderRules(),
  map: MapSettings | null = null,
): readonly HeaderRule[] {
  if (!map) return rules;
  return rules.map((rule) => {
    const csp = rule.values["Content-Security-Policy"];
    if (!csp || !rule.pattern.test(PLACE_PAGES)) return rule;
    const widened = admitImages(csp, map.origin);
    return widened === csp
      ? rule
      : { ...rule, values: { ...rule.values, "Content-Security-Policy": widened } };
  });
}

/** The policy with `origin` in img-src (or default-src when there is no img-src), unless admitted. */
function admitImages(policy: string, origin: string): string {
  const directives = policy.split(";").map((directive) => directive.trim());
  const index = directives.findIndex((d) => /^img-src(\s|$)/i.test(d));
  const name = index === -1 ? "default-src" : "img-src";
  const at = index === -1 ? directives.findIndex((d) => /^default-src(\s|$)/i.test(d)) : index;
  const directive = at === -1 ? `${name} 'self'` : (directives[at] as string);
  const sources = directive.split(/\s+/).slice(1);
  const scheme = `${new URL(origin).protocol}`;
  if (sources.some((source) => source === "*" || source === scheme || source === origin)) {
    return policy;
  }
  const widened = `${directive} ${origin}`;
  if (at === -1) return [...directives, widened].filter(Boolean).join("; ");
  return directives.map((d, i) => (i === at ? widened : d)).join("; ");
}
