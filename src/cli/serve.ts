import type { IncomingMessage, ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import Eleventy from "@11ty/eleventy";
import { headersFor } from "../build/headers.ts";
import { resolveRebuildInterval } from "../build/schedule.ts";
import { getSiteConfig } from "../config/site.ts";
import { useDemoPortalIfUnconfigured } from "./demo-portal.ts";
import { runCli } from "./run.ts";

/**
 * `npm start`: builds into _site and serves it with live reload, against the
 * demo portal unless EVENT_API_URL is set. Responses carry the same headers
 * as production (netlify.toml), so framing, CORS and the Content-Security-Policy
 * can be checked locally. Edits to templates rebuild; the portal data is
 * fetched again on each rebuild.
 */
runCli(async () => {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8080" },
      output: { type: "string", default: "_site" },
    },
  });
  const port = Number(values.port);
  if (!process.env.SITE_URL?.trim()) process.env.SITE_URL = `http://localhost:${port}`;
  if (!process.env.REBUILD_INTERVAL_MINUTES?.trim()) {
    process.env.REBUILD_INTERVAL_MINUTES = String(resolveRebuildInterval(process.env).minutes);
  }
  const site = getSiteConfig();
  const stopDemoPortal = await useDemoPortalIfUnconfigured(site);
  const basePath = new URL(site.url).pathname.replace(/\/$/, "");

  const eleventy = new Eleventy("templates", values.output, {
    runMode: "serve",
    configPath: ".eleventy.js",
    config(eleventyConfig: { setServerOptions(options: object): void }) {
      eleventyConfig.setServerOptions({
        port,
        middleware: [
          (request: IncomingMessage, response: ServerResponse, next: () => void) => {
            const path = new URL(request.url ?? "/", "http://localhost").pathname;
            const sitePath =
              basePath && path.startsWith(basePath) ? path.slice(basePath.length) || "/" : path;
            for (const [name, value] of Object.entries(headersFor(sitePath)))
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
    await stopDemoPortal();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
});
