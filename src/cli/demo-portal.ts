import type { SiteConfig } from "../config/site.ts";
import { ConfigError } from "../errors.ts";
import { startPortal } from "../portal/index.ts";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * With no EVENT_API_URL configured (or EVENT_API_URL=demo), the build runs
 * against the bundled reference portal with its demo dataset, started
 * in-process on a free loopback port and reached over real HTTP, exactly as
 * a real portal would be. Returns a function that stops it (a no-op when a
 * real API is configured).
 *
 * A missing EVENT_API_URL while SITE_URL names a published site is far more
 * likely a lost secret than a wish to publish demo events over the real ones,
 * so that combination stops the build; EVENT_API_URL=demo asks for it.
 */
export async function useDemoPortalIfUnconfigured(
  site: SiteConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<() => Promise<void>> {
  const configured = env.EVENT_API_URL?.trim();
  if (configured && configured !== "demo") return async () => {};
  if (!configured && !LOOPBACK.has(new URL(site.url).hostname)) {
    throw new ConfigError(
      `EVENT_API_URL is not set, but SITE_URL (${site.url}) names a published site: refusing to publish the demo data there. Set EVENT_API_URL and EVENT_API_TOKEN, or EVENT_API_URL=demo to publish the demo on purpose.`,
    );
  }
  const portal = await startPortal({ host: "127.0.0.1", port: 0, now: site.now.toJSDate() });
  env.EVENT_API_URL = portal.url;
  env.EVENT_API_TOKEN = portal.token;
  delete env.EVENT_API_TOKEN_FILE;
  delete env.EVENT_API_AUTH;
  console.log(`Using the bundled reference portal with its demo data (${portal.url}).`);
  return () => portal.close();
}
