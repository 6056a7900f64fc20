import type { ShareCards } from "../cards/share-cards.ts";
import type { SiteConfig } from "../config/site.ts";
import type { FeedScopes } from "../outputs/feed-scopes.ts";
import type { RichResultsTally } from "../outputs/rich-results.ts";
import type { SearchFacts } from "../search/search-facts.ts";
import type { SiteData } from "../site/load.ts";

/**
 * What one run of the build publishes: the site's data, and what is derived
 * from it once for every page and file that needs it (src/eleventy/publisher-plugin.ts).
 */
export interface Publication {
  readonly site: SiteConfig;
  readonly data: SiteData;
  /** The sets of events with feeds and calendars, and their size budgets. */
  readonly scopes: FeedScopes;
  /** What the search page's filter form offers. */
  readonly searchFacts: SearchFacts;
  /** The event pages' JSON-LD, counted as they are rendered, for the build report. */
  readonly richResults: RichResultsTally;
  /** Each page's share card (src/cards); null with SHARE_CARDS=off. */
  readonly cards: ShareCards | null;
}

/** What the plugins that read the run's publication are given (src/eleventy/publisher-plugin.ts). */
export interface PublicationPluginOptions {
  readonly site: SiteConfig;
  /** The run's data and what is derived from it, asked for when a filter runs. */
  readonly current: () => Publication;
}
