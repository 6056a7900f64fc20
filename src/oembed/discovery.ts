import type { DeployTarget } from "../config/deploy.ts";
import { paths, type SiteUrls } from "../model/url-scheme.ts";

/**
 * Where a calendar page's oEmbed discovery link points (oEmbed section 4),
 * per DEPLOY_TARGET (docs/widget.md, "oEmbed"):
 *
 * - `endpoint`: the spec's endpoint, `{site}/oembed?url={page}&format=json`,
 *   which honours a consumer's maxwidth and maxheight. Netlify runs it as a
 *   function (netlify/functions/oembed.mts), Cloudflare Pages as a Pages
 *   Function (functions/oembed.ts); both answer at the root of the host, so a
 *   site in a folder of its host (SITE_URL with a path) uses the static answer.
 * - `static`: the build's answer file, `{site}/oembed/{calendar}.json`, on
 *   hosts that serve only files (GitHub Pages, a bucket, a web server).
 *   Consumers that discover it get the same answer at its full size.
 */
export type OembedDiscovery = "endpoint" | "static";

export function oembedDiscovery(
  target: DeployTarget,
  urls: Pick<SiteUrls, "basePath">,
): OembedDiscovery {
  const runsFunctions = target === "netlify" || target === "cloudflare-pages";
  return runsFunctions && urls.basePath === "" ? "endpoint" : "static";
}

/** The absolute URL the discovery link of a calendar page names. */
export function oembedDiscoveryUrl(
  calendarId: string,
  urls: SiteUrls,
  discovery: OembedDiscovery,
): string {
  if (discovery === "static") return urls.absolute(paths.oembed(calendarId));
  const query = new URLSearchParams({
    url: urls.absolute(paths.calendar(calendarId)),
    format: "json",
  });
  return `${urls.absolute(paths.oembedEndpoint())}?${query}`;
}
