import { PublisherError } from "../../src/errors.ts";
import { deliverToFollowers } from "../../src/fediverse/account-functions.ts";
import { runLogged } from "../../src/hosts/function-run.ts";

/**
 * Netlify scheduled function (its schedule in netlify.toml): delivers what
 * the deploy's run could not (a follower's server that was down, more than
 * one run's worth of deliveries), and whatever the published outbox holds
 * that no run has seen (docs/followers.md, "Delivery"). Reads SITE_URL,
 * AP_USERNAME and AP_PRIVATE_KEY (Functions scope).
 */
export default function fediverseDelivery(_request: Request): Promise<Response> {
  return runLogged("fediverse-delivery", async (log) => {
    const published = process.env.SITE_URL?.trim() || process.env.URL?.trim();
    if (!published) throw new PublisherError("SITE_URL is not set for the Functions scope.");
    return deliverToFollowers(published, process.env, log, { deadlineMs: 20_000 });
  });
}
