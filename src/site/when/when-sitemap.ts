import { modifiedAt, newest } from "../data-updated.ts";
import type { WhenViews } from "./when-views.ts";

/**
 * The "when" pages in the sitemap, each with the newest portal modification
 * among the events it lists (null when it lists none): like every `lastmod`,
 * never the build's clock.
 */
export function whenSitemapEntries(
  when: WhenViews,
): { readonly path: string; readonly lastmod: string | null }[] {
  return when.pages.map((page) => ({
    path: page.path,
    lastmod: newest(page.days.flatMap((day) => day.events.map(modifiedAt))),
  }));
}
