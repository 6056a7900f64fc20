import { contentHash } from "../render/published-files.ts";

type Data = Record<string, unknown>;

/** Global data that is not the site's own: the data every page shows (per item), and Eleventy's run. */
const NOT_SITE_WIDE = new Set(["portal", "eleventy"]);

/**
 * What every streamed page depends on besides its own data, as one digest,
 * so that each page hashes a few bytes of it however large `_data/` is:
 * the settings (the clock left out: it reaches a page only through what the
 * page's inputs name), whether the site has an organizations page (the
 * navigation), the global data of the site's own (`_data/`), none of which
 * the code's fingerprint covers, and `host`: what the host's transform does
 * to every page (src/hosts/host-files.ts).
 *
 * Undefined when the global data cannot be written as JSON: every page is
 * then rendered, and kept when its bytes are unchanged.
 */
export function siteWideInputs(globals: Data, host: string): string | undefined {
  const portal = globals.portal as { views?: { organizationIndex?: readonly unknown[] } };
  try {
    const text = JSON.stringify(
      [
        host,
        portal?.views?.organizationIndex?.length ?? 0,
        Object.entries(globals)
          .filter(([key]) => !NOT_SITE_WIDE.has(key))
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      ],
      (key, value) => (key === "now" ? undefined : value),
    );
    return contentHash(text);
  } catch {
    return undefined;
  }
}
