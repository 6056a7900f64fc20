import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { SiteConfig } from "../../src/config/site.ts";
import { type BuiltWidgetSite, buildWidgetSite, type WidgetSiteOptions } from "./plugin-site.ts";
import { type RunningServer, startStaticServer } from "./static-server.ts";

export interface ServedWidgetSite {
  /** Where it is served: http://127.0.0.1:<port> */
  readonly origin: string;
  readonly outputDir: string;
  readonly site: SiteConfig;
}

/**
 * A widget site (buildWidgetSite) built for its own loopback origin and
 * served there as the CDN serves it, for the tests of one describe block
 * (call it in the block). `options` may depend on the origin; `files` are
 * written into the output (what the build would have copied), by path.
 */
export function useServedWidgetSite(
  options: (
    origin: string,
  ) => WidgetSiteOptions & { files?: Readonly<Record<string, string>> } = () => ({}),
): ServedWidgetSite {
  let server: RunningServer | undefined;
  let built: BuiltWidgetSite | undefined;
  beforeAll(async () => {
    server = await startStaticServer();
    const { files = {}, ...widget } = options(server.origin);
    built = await buildWidgetSite(server.origin, widget);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(built.outputDir, path)), { recursive: true });
      writeFileSync(join(built.outputDir, path), content);
    }
    server.setRoot(built.outputDir);
  });
  afterAll(async () => {
    await server?.close();
    built?.remove();
  });
  const ready = () => {
    if (!server || !built) throw new Error("the widget site is built before the tests");
    return { server, built };
  };
  return {
    get origin() {
      return ready().server.origin;
    },
    get outputDir() {
      return ready().built.outputDir;
    },
    get site() {
      return ready().built.site;
    },
  };
}
