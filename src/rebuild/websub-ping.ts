import { PublishedSite } from "../api/published-site.ts";
import { Semaphore } from "../api/semaphore.ts";
import { paths } from "../model/url-scheme.ts";
import { type AfterDeployOptions, type AfterDeployResult, stepLines } from "./after-deploy.ts";
import type { BuildState } from "./build-state.ts";
import { readBuildState } from "./read-build-state.ts";

/**
 * After a deploy, tells the WebSub hub which feeds changed, so that readers
 * subscribed through it get new events in seconds instead of at their next
 * poll. One publish ping per feed whose bytes this build changed
 * (`feedsChanged` in manifest.json, docs/public-json.md), none for the
 * others. The ping is the de facto publisher notification hubs accept
 * (`hub.mode=publish`, `hub.url=<feed>`, form-encoded POST); WebSub itself
 * leaves it to the hub (W3C WebSub, section 7).
 */

export interface PingHubOptions extends AfterDeployOptions {
  /** WEBSUB_HUB; null: nothing to do. */
  readonly hub: string | null;
}

export interface PingHubResult extends AfterDeployResult {
  /** Feed URLs the hub accepted a ping for. */
  readonly pinged: readonly string[];
}

const PING_TIMEOUT_MS = 5_000;
const PARALLEL_PINGS = 4;

export async function pingHub(options: PingHubOptions): Promise<PingHubResult> {
  const { lines, say } = stepLines(options.log);
  if (!options.hub) {
    say("WEBSUB_HUB is not set; no hub to ping");
    return { ok: true, pinged: [], lines };
  }
  const hub = options.hub;
  const published = new PublishedSite(options.published);
  const state = await readBuildState(published);
  const site = state.siteUrl.replace(/\/+$/, "");
  // The manifest lists feed addresses; build states of earlier versions listed site paths.
  const topics = (await changedFeeds(published, state)).map((feed) =>
    /^https?:\/\//.test(feed) ? feed : `${site}${feed}`,
  );
  if (topics.length === 0) {
    say(`no feed changed in this deploy; ${hub} not pinged`);
    return { ok: true, pinged: [], lines };
  }
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? PING_TIMEOUT_MS;
  const slots = new Semaphore(PARALLEL_PINGS);
  const pinged: string[] = [];
  /** Topics the hub answered with an error, each with its status. */
  const refused: string[] = [];
  /** Why the hub could not be asked at all (the same for every topic). */
  const unreachable = new Set<string>();
  await Promise.all(
    topics.map(async (topic) => {
      const release = await slots.acquire();
      try {
        const response = await fetch(hub, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ "hub.mode": "publish", "hub.url": topic }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
        await response.body?.cancel().catch(() => undefined);
        if (response.ok) pinged.push(topic);
        else refused.push(`${topic} (HTTP ${response.status})`);
      } catch (error) {
        unreachable.add(
          error instanceof Error && error.name === "TimeoutError"
            ? `no answer within ${timeoutMs / 1000} s`
            : "unreachable",
        );
      } finally {
        release();
      }
    }),
  );
  // A hub that cannot be reached is one problem, not one per feed.
  if (unreachable.size > 0) say(`hub ${hub}: ${[...unreachable].join(", ")}`);
  for (const failure of refused.sort()) say(`hub ${hub} refused ${failure}`);
  const failed = topics.length - pinged.length;
  say(
    `pinged ${hub} for ${pinged.length} of ${topics.length} changed feeds` +
      (failed ? `; ${failed} failed` : ""),
  );
  return { ok: failed === 0, pinged: pinged.sort(), lines };
}

/** The feeds the deploy changed: from its manifest, or from the build state of earlier versions. */
async function changedFeeds(published: PublishedSite, state: BuildState): Promise<string[]> {
  const manifest = (await published.readJson(paths.apiManifest()).catch(() => null)) as {
    feedsChanged?: unknown;
  } | null;
  const listed = manifest?.feedsChanged ?? state.feedsChanged ?? [];
  return Array.isArray(listed)
    ? listed.filter((path): path is string => typeof path === "string")
    : [];
}
