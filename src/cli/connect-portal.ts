import type { ApiConfig } from "../config/api.ts";
import type { BuildConfig } from "../config/build-config.ts";
import type { SourcesConfig } from "../config/sources.ts";
import { startPortal } from "../portal/index.ts";

export interface PortalConnection {
  readonly api: ApiConfig;
  /**
   * The settings the build state records (hashed): the bundled portal's are
   * named "demo" rather than by the port of the moment, so that a rebuild of
   * the demo writes the same build state.
   */
  readonly recorded: ApiConfig;
  /** EVENT_SOURCES_FILE: the sources, each fetched on its own (src/sources); null: one portal. */
  readonly sources: SourcesConfig | null;
  /** Stops the demo portal; nothing for a real one. */
  close(): Promise<void>;
}

/**
 * The API settings of the build's portal. Without a configured portal
 * (src/config/build-config.ts), the bundled reference portal with its demo
 * dataset is started in-process on a free loopback port and reached over
 * real HTTP, exactly as a real portal would be, with the API options the
 * environment sets (cache folder, concurrency, ...).
 */
export async function connectPortal(config: BuildConfig): Promise<PortalConnection> {
  const source = config.portal;
  if (source.kind === "portal") {
    return { api: source.api, recorded: source.api, sources: null, close: async () => {} };
  }
  if (source.kind === "sources") {
    // No one portal: the build state records each source's own (src/rebuild).
    const api: ApiConfig = {
      ...source.options,
      baseUrl: "sources",
      token: "",
      auth: { kind: "bearer" },
    };
    return { api, recorded: api, sources: source.sources, close: async () => {} };
  }
  const portal = await startPortal({
    host: "127.0.0.1",
    port: 0,
    now: config.site.now.toJSDate(),
  });
  console.log(`Using the bundled reference portal with its demo data (${portal.url}).`);
  const api: ApiConfig = {
    ...source.options,
    baseUrl: portal.url,
    token: portal.token,
    auth: { kind: "bearer" },
  };
  return {
    api,
    recorded: { ...api, baseUrl: "demo" },
    sources: null,
    close: () => portal.close(),
  };
}
