import type { SiteConfig } from "../config/site.ts";
import type { CalendarEvent } from "../model/types.ts";
import type { Account } from "./account.ts";
import { EVENT_CONTEXT } from "./activity-context.ts";
import { eventObject, tombstone } from "./event-object.ts";

/**
 * The file at an event's object id: the `Event` while the site publishes it,
 * a `Tombstone` once the portal deleted it or moved it to another calendar
 * and the site keeps its page only to say so (src/changes).
 */
export function renderEventDocument(
  event: CalendarEvent,
  site: Pick<SiteConfig, "url" | "urls">,
  account: Account,
): string {
  // A removed event's updatedAt is its removal (src/changes/detect-changes.ts).
  const object = event.history?.removed
    ? tombstone(site, event, event.updatedAt)
    : eventObject(event, site, account);
  return `${JSON.stringify({ "@context": EVENT_CONTEXT, ...object }, null, 2)}\n`;
}
