import { byStart } from "../model/order.ts";
import type { CalendarEvent, SourceOrganization } from "../model/types.ts";
import { type FeedScope, paths } from "../model/url-scheme.ts";
import type { CalendarSummary } from "./views.ts";

/**
 * The organizations of a site of several sources (docs/sources.md,
 * "Organizations"): each one's calendars and upcoming events, for its page
 * at /organizations/<source id>/ and its feeds and calendar file there. A
 * site of one portal has none, and so no such page.
 */

export interface OrganizationSummary {
  readonly organization: SourceOrganization;
  readonly path: string;
  /** Its feeds and calendar file (src/outputs/feed-scopes.ts). */
  readonly scope: FeedScope;
  readonly calendars: readonly CalendarSummary[];
  /** Its upcoming events, each once: an event in two of its calendars is one. */
  readonly upcoming: readonly CalendarEvent[];
}

export function organizationSummaries(
  sources: readonly SourceOrganization[],
  calendars: readonly CalendarSummary[],
): OrganizationSummary[] {
  return sources.map((organization) => {
    const own = calendars.filter((summary) => summary.calendar.source === organization.id);
    return {
      organization,
      path: paths.organization(organization.id),
      scope: { kind: "organization", id: organization.id, name: organization.name },
      calendars: own,
      upcoming: [...new Set(own.flatMap((summary) => summary.upcoming))].sort(byStart),
    };
  });
}
