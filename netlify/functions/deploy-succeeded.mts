import { readSiteConfig } from "../../src/config/site.ts";
import { PublisherError } from "../../src/errors.ts";
import { deliverToFollowers } from "../../src/fediverse/account-functions.ts";
import { runLogged } from "../../src/hosts/function-run.ts";
import { tellSearchEngines } from "../../src/rebuild/indexnow-ping.ts";
import { pingHub } from "../../src/rebuild/websub-ping.ts";

/**
 * Netlify event function: runs when a deploy succeeded (the file name picks
 * the event). With WEBSUB_HUB set (Functions scope), it pings the hub once per
 * feed whose bytes this deploy changed, read from the deploy's own published
 * state at its immutable address (payload.deploy_ssl_url); then it delivers
 * the deploy's new activities to the fediverse account's followers
 * (src/fediverse/account-functions.ts), and with INDEXNOW_KEY tells the
 * search engines which pages it changed (src/rebuild/indexnow-ping.ts).
 * Deploy previews and branch deploys ping, deliver and tell nothing.
 */
export default function deploySucceeded(request: Request): Promise<Response> {
  return runLogged("deploy-succeeded", async (log) => {
    const body = (await request.json().catch(() => null)) as {
      payload?: { context?: unknown; deploy_ssl_url?: unknown; ssl_url?: unknown };
    } | null;
    const payload = body?.payload ?? {};
    if (typeof payload.context === "string" && payload.context !== "production") {
      log(`a ${payload.context} deploy; no hub is pinged`);
      return true;
    }
    const deployed =
      (typeof payload.deploy_ssl_url === "string" && payload.deploy_ssl_url) ||
      process.env.SITE_URL?.trim() ||
      process.env.URL?.trim();
    if (!deployed) throw new PublisherError("No deploy address in the event and no SITE_URL.");
    const result = await pingHub({
      hub: readSiteConfig(process.env).websubHub,
      published: deployed,
      log,
    });
    const delivered = await deliverToFollowers(deployed, process.env, log);
    const indexed = await tellSearchEngines(deployed, process.env, log);
    return result.ok && delivered && indexed;
  });
}
