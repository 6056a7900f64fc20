import type { IncomingMessage, ServerResponse } from "node:http";
import { BROWSER_SOURCES } from "../bundle/browser-bundle.ts";
import { openShareCards } from "../cards/share-cards.ts";
import { BUILD_SETTINGS, readBuildConfig } from "../config/build-config.ts";
import { siteEleventy } from "../eleventy/site-eleventy.ts";
import { headersFor } from "../hosts/headers.ts";
import { requestOrigin, siteHeaderRules } from "../hosts/site-rules.ts";
import { paths } from "../model/url-scheme.ts";
import { serveOembed } from "../oembed/serve-folder.ts";
import { loadSiteData } from "../site/load.ts";
import { defineCommand } from "./command-line.ts";
import { connectPortal } from "./connect-portal.ts";
import { fetchPortal } from "./fetch-portal.ts";
import { runCli } from "./run.ts";
import { SERVE_PORT_OPTION } from "./site-options.ts";

/**
 * `npm start`: builds into _site and serves it with live reload, against the
 * demo portal unless EVENT_API_URL is set, in SITE_URL's folder when it has
 * one. Responses carry the same headers as production (netlify.toml), so
 * framing, CORS and the Content-Security-Policy can be checked locally; the
 * oEmbed endpoint answers at `{site}/oembed` as the host's function does.
 * Edits to templates and to the browser scripts rebuild; the portal is read
 * again on each rebuild.
 */
const START = defineCommand({
  run: "npm start",
  summary:
    "Builds the site and serves it with live reload and the production headers; edits to templates rebuild, and each rebuild reads the portal again.",
  options: {
    ...SERVE_PORT_OPTION,
    output: {
      type: "string",
      value: "<dir>",
      default: "_site",
      meaning: "the folder the site is built into",
    },
  },
  settings: BUILD_SETTINGS,
});

runCli(START, async ({ values }) => {
  const port = Number(values.port);
  const config = readBuildConfig(process.env, { defaultSiteUrl: `http://localhost:${port}` });
  const { site } = config;
  const portal = await connectPortal(config);
  const basePath = site.urls.basePath;
  const cards = await openShareCards(config.cacheDir, config.cards);
  if (site.languages.length > 1) {
    // Live reload follows one Eleventy: the root's language (docs/translating.md).
    console.log(
      `npm start serves the first of SITE_LANGUAGES (${site.lang}); npm run build and npm run preview show every language.`,
    );
  }

  const eleventy = await siteEleventy({
    output: values.output,
    site,
    cacheDir: config.cacheDir,
    cards,
    runMode: "serve",
    loadData: async () => {
      const fetched = await fetchPortal(portal, {
        defaultTimeZone: site.timeZone,
        now: site.now.toJSDate(),
        sink: process.stderr,
      });
      const portalUrl = portal.sources ? null : portal.api.baseUrl;
      return (await loadSiteData(fetched.snapshot, { ...config, portalUrl })).data;
    },
    configure(eleventyConfig: {
      setServerOptions(options: object): void;
      addWatchTarget(target: string): void;
    }) {
      // The browser scripts are bundled from there on the next rebuild (src/bundle/browser-bundle.ts).
      for (const folder of BROWSER_SOURCES) eleventyConfig.addWatchTarget(folder);
      eleventyConfig.setServerOptions({
        port,
        middleware: [
          (request: IncomingMessage, response: ServerResponse, next: () => void) => {
            const path = new URL(request.url ?? "/", "http://localhost").pathname;
            const sitePath =
              basePath && path.startsWith(basePath) ? path.slice(basePath.length) || "/" : path;
            if (sitePath === paths.oembedEndpoint()) {
              serveOembed(request, response, values.output).catch(() => {
                if (!response.headersSent) response.writeHead(500);
                response.end();
              });
              return;
            }
            // The embed pages name the origin the browser asked for, as well as SITE_URL's.
            const origin = requestOrigin(request.headers.host);
            const rules = siteHeaderRules(site, origin ? [origin] : []);
            for (const [name, value] of Object.entries(headersFor(sitePath, rules)))
              response.setHeader(name, value);
            next();
          },
        ],
      });
    },
  });
  await eleventy.init();
  await eleventy.watch();
  await eleventy.serve(port);

  const stop = async () => {
    await eleventy.stopWatch();
    await portal.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
});
