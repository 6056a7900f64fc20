import { existsSync } from "node:fs";
import { PublishedSite } from "../api/published-site.ts";
import { MAP_SETTINGS, readMapSettings } from "../config/map.ts";
import { ConfigError } from "../errors.ts";
import { defaultHeaderRules, headersFor } from "../hosts/headers.ts";
import { withMapTiles } from "../hosts/map-policy.ts";
import { startPreviewServer } from "../hosts/preview-server.ts";
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
    .catch(() => null)) as { siteUrl?: unknown } | null;
  const basePath =
    typeof manifest?.siteUrl === "string" ? new SiteUrls(manifest.siteUrl).basePath : "";
  // The place pages admit MAP_TILES_URL's tile server, as the build's host files do.
  const rules = withMapTiles(defaultHeaderRules(), readMapSettings(process.env));
  const server = await startPreviewServer({
    root: values.dir,
    host: values.host,
    port: Number(values.port),
    basePath,
    headers: (sitePath) => headersFor(sitePath, rules),
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
