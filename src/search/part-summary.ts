/**
 * What parts.json says of a part (index-layout.ts). Types only: the search
 * page's script (src/site/browser/search.ts) reads the list with them.
 */
export interface PartSummary {
  readonly key: string;
  /**
   * The browser's cache tag for its entry file (Pagefind's metaCacheTag): a
   * hash of what the part is made from (part-cache.ts), which changes
   * whenever its files do and is known without indexing it.
   */
  readonly entry: string;
  readonly records: number;
  readonly firstDay: string;
  readonly lastDay: string;
}
