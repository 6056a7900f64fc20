import { existsSync } from "node:fs";
import { PublishedSite } from "../api/published-site.ts";
import { MAP_SETTINGS, readMapSettings } from "../config/map.ts";
import { ConfigError } from "../errors.ts";
import { headersFor } from "../hosts/headers.ts";
import { startPreviewServer } from "../hosts/preview-server.ts";
import { siteHeaderRules } from "../hosts/site-rules.ts";
import { paths, SiteUrls } from "../model/url-scheme.ts";
import { defineCommand } from "./command-line.ts";
import { runCli } from "./run.ts";
import { BUILT_SITE_OPTION, SERVE_PORT_OPTION } from "./site-options.ts";

/**
 * `npm run preview`: serves the built site (`_site/`, or `--dir`) with the
 * production headers, to check a build before it is deployed, in the folder
 * its SITE_URL names (read from the build's manifest).
 */
const PREVIEW = defineCommand({
  run: "npm run preview",
  summary:
    "Serves the built site exactly as the CDN would (headers from netlify.toml), in the folder its SITE_URL names.",
  options: {
    ...BUILT_SITE_OPTION,
    ...SERVE_PORT_OPTION,
    host: {
      type: "string",
      value: "<address>",
      default: "127.0.0.1",
      meaning: "the address to serve on",
    },
  },
  settings: MAP_SETTINGS,
});

runCli(PREVIEW, async ({ values }) => {
  if (!existsSync(values.dir)) {
    throw new ConfigError(`Nothing to preview in ${values.dir}/: run npm run build first.`);
  }
  const manifest = (await new PublishedSite(values.dir)
    .readJson(paths.apiManifest())
    .catch(() => null)) as { siteUrl?: unknown; languages?: unknown } | null;
  const siteUrl = typeof manifest?.siteUrl === "string" ? manifest.siteUrl : undefined;
  // A site in several languages: each one's folder gets the rules too (src/hosts/language-rules.ts).
  const languages = languageFolders(manifest?.languages, siteUrl);
  const basePath = siteUrl ? new SiteUrls(siteUrl).basePath : "";
  // As the build's host files have them: the place pages admit MAP_TILES_URL's
  // tile server; the embed pages name this server's origin as the browser
  // reaches it, and the site's (src/hosts/site-rules.ts).
  const map = readMapSettings(process.env);
  const rulesAt = new Map<string, ReturnType<typeof siteHeaderRules>>();
  const server = await startPreviewServer({
    root: values.dir,
    host: values.host,
    port: Number(values.port),
    basePath,
    headers: (sitePath, origin) => {
      let rules = rulesAt.get(origin);
      if (!rules) {
        rules = siteHeaderRules({ url: siteUrl ?? origin, map, languages }, [origin]);
        // One entry per name the server is reached by; a Host header cannot grow it without bound.
        if (rulesAt.size < 16) rulesAt.set(origin, rules);
      }
      return headersFor(sitePath, rules);
    },
  });
  console.log(
    `Previewing ${values.dir}/ with production headers at ${server.origin}${basePath}/ (Ctrl-C stops)`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
});

/** The languages' folders the manifest names (`languages`: `{ lang, url }`, the root's first). */
function languageFolders(listed: unknown, siteUrl: string | undefined): { folder: string }[] {
  if (!Array.isArray(listed) || !siteUrl) return [];
  return listed.flatMap((language: { url?: unknown }) => {
    const url = typeof language?.url === "string" ? language.url : "";
    const folder = url.startsWith(`${siteUrl}/`) ? url.slice(siteUrl.length + 1) : "";
    return /^[a-z0-9-]{2,40}$/.test(folder) ? [{ folder: `${folder}/` }] : [];
  });
}
