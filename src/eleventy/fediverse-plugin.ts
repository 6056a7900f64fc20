import type { SiteConfig } from "../config/site.ts";
import { eventObjectId } from "../fediverse/event-object.ts";
import type { CalendarEvent } from "../model/types.ts";
import { addFilter, type NunjucksAmender } from "./template-filters.ts";

/**
 * The event page's `<link rel="alternate" type="application/activity+json">`
 * (docs/followers.md, "The fediverse"): where Mastodon and Fedify find the
 * event's ActivityStreams object when someone pastes the page's address.
 * Empty without a fediverse account, and for a page that only says its event
 * is gone (its object is a Tombstone).
 */
export interface FediversePluginOptions {
  readonly site: SiteConfig;
}

export default function fediversePlugin(
  eleventyConfig: NunjucksAmender,
  options: FediversePluginOptions,
): void {
  const { site } = options;
  addFilter(eleventyConfig, "activityPubUrl", (event: CalendarEvent | undefined) =>
    site.fediverse && event && !event.history?.removed ? eventObjectId(site, event) : "",
  );
}
