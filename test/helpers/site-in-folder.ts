import { join } from "node:path";
import { expect } from "vitest";
import {
  type PreviewOptions,
  type PreviewServer,
  startPreviewServer,
} from "../../src/hosts/preview-server.ts";
import { type BuiltSite, buildSite } from "./demo-build.ts";
import { tempDir } from "./temp-dir.ts";
import { useForTests } from "./use-for-tests.ts";

/** The demo built for a folder of its host, and where it is served. */
export interface SiteInFolder {
  readonly site: BuiltSite;
  /** The site's address: SITE_URL, `<origin>/<folder>/`. */
  readonly start: string;
  readonly server: PreviewServer;
}

/**
 * The demo built with SITE_URL in `folder` of a loopback host and served
 * there by `npm run preview`'s server (`server`: its options besides the
 * folder), for a describe block; `env` adds to the build's settings. The
 * build must succeed. Share cards are off: their addresses in a folder are
 * test/integration/share-cards.test.ts's.
 */
export function useSiteInFolder(
  folder: string,
  options: { server?: Omit<PreviewOptions, "basePath">; env?: Record<string, string> } = {},
): () => SiteInFolder {
  return useForTests(
    "the site in its folder",
    async () => {
      const work = tempDir("ecp-folder-");
      const output = join(work, "root", folder);
      const server = await startPreviewServer({ basePath: `/${folder}`, ...options.server });
      server.setRoot(output);
      const start = `${server.origin}/${folder}/`;
      try {
        const site = await buildSite(
          {
            SITE_URL: start,
            EVENT_API_CACHE_DIR: join(work, "cache"),
            SHARE_CARDS: "off",
            ...options.env,
          },
          output,
        );
        expect(site.status, site.log).toBe(0);
        return { site, start, server };
      } catch (error) {
        await server.close();
        throw error;
      }
    },
    ({ server }) => server.close(),
  );
}
