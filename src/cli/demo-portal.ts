import type { SiteConfig } from "../config/site.ts";
import { startPortal } from "../portal/index.ts";

/**
 * With no EVENT_API_URL configured, the build runs against the bundled
 * reference portal with its demo dataset, started in-process on a free
 * loopback port and reached over real HTTP, exactly as a real portal would be.
 * Returns a function that stops it (a no-op when a real API is configured).
 */
export async function useDemoPortalIfUnconfigured(
  site: SiteConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<() => Promise<void>> {
  if (env.EVENT_API_URL?.trim()) return async () => {};
  const portal = await startPortal({ host: "127.0.0.1", port: 0, now: site.now.toJSDate() });
  env.EVENT_API_URL = portal.url;
  env.EVENT_API_TOKEN = portal.token;
  delete env.EVENT_API_TOKEN_FILE;
  delete env.EVENT_API_AUTH;
  console.log(
    `EVENT_API_URL is not set: using the bundled reference portal with its demo data (${portal.url}).`,
  );
  return () => portal.close();
}
