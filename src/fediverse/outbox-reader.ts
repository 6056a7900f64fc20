import { PublishedSite } from "../api/published-site.ts";
import { paths } from "../model/url-scheme.ts";
import { EVENT_CONTEXT } from "./activity-context.ts";
import type { ActivityDocument } from "./delivery-queue.ts";

/**
 * The activities a deploy published that a delivery run has not seen: read
 * from the deploy's own outbox (its immutable address, or the site), newest
 * first, page after page until a page holds nothing new, at most
 * MAX_OUTBOX_PAGES (the whole of a full outbox, src/changes/event-activity.ts).
 */
export const MAX_OUTBOX_PAGES = 20;

export async function unseenActivities(
  published: string,
  seen: ReadonlySet<string>,
): Promise<{ activities: ActivityDocument[]; read: string[] }> {
  const site = new PublishedSite(published, { timeoutMs: 5_000, retries: 1 });
  const activities: ActivityDocument[] = [];
  const read: string[] = [];
  for (let n = 1; n <= MAX_OUTBOX_PAGES; n++) {
    const page = (await site.readJson(paths.apOutboxPage(n))) as {
      orderedItems?: unknown;
      next?: unknown;
    };
    const items = Array.isArray(page.orderedItems) ? page.orderedItems : [];
    let fresh = 0;
    for (const item of items) {
      if (typeof item !== "object" || item === null) continue;
      const id = (item as { id?: unknown }).id;
      if (typeof id !== "string") continue;
      read.push(id);
      if (seen.has(id)) continue;
      fresh++;
      activities.push({ "@context": EVENT_CONTEXT, ...(item as object), id });
    }
    if (fresh === 0 || typeof page.next !== "string") break;
  }
  return { activities, read };
}
