import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { readApiConfig } from "../../src/config/api.ts";
import { readPublishConfig } from "../../src/config/publish.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import type { RunningPortal } from "../../src/portal/index.ts";
import { writeBuildState } from "../../src/rebuild/write-build-state.ts";
import { loadSnapshot } from "../../src/snapshot/load-snapshot.ts";
import { DEMO_NOW, DEMO_SITE_URL } from "./demo-build.ts";

/** A secret-looking hook id: tests assert it never appears in any output. */
export const HOOK_ID = "7d1e0c9b8a6f5e4d3c2b1a09";

export interface Recorder {
  readonly url: string;
  /** Bodies of the POSTs received, in order. */
  readonly calls: { path: string; body: string }[];
  close(): Promise<void>;
}

/** A local stand-in for a build hook or a WebSub hub: records every request and answers `status`. */
export async function startRecorder(path: string, status = 200): Promise<Recorder> {
  const calls: { path: string; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      calls.push({ path: request.url ?? "", body });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The API settings a build against `portal` uses (fetch cache under `dir`). */
export function apiEnv(
  portal: RunningPortal,
  dir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    EVENT_API_CACHE_DIR: join(dir, ".cache"),
    EVENT_API_RETRIES: "1",
    EVENT_API_RETRY_MAX_WAIT: "100ms",
    ...extra,
  };
}

/**
 * What a build publishes for the rebuild check, made the way `npm run build`
 * makes it (the build's fetch records the lists; writeBuildState writes the
 * state), without rendering the site: into `<dir>/_site`.
 */
export async function publishState(
  env: Record<string, string>,
  dir: string,
  now: string = DEMO_NOW,
): Promise<string> {
  const site = join(dir, "_site");
  mkdirSync(site, { recursive: true });
  const config = readApiConfig(env);
  const { snapshot, lists } = await loadSnapshot({
    config,
    defaultTimeZone: "Europe/Amsterdam",
    now: new Date(now),
    sink: null,
  });
  const siteUrl = DEMO_SITE_URL;
  await writeBuildState({
    staging: site,
    output: site,
    config: {
      site: readSiteConfig({ SITE_NOW: now, SITE_URL: siteUrl }),
      publish: readPublishConfig({ PREVIOUS_MANIFEST_URL: "none" }, siteUrl),
    },
    api: config,
    lists,
    published: snapshot,
    changes: null,
    log: () => undefined,
  });
  return site;
}
