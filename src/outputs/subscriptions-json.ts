import { type FeedScope, feedFilePaths, feedUrls, scopeFolderPath } from "./feeds-urls.ts";
import { subscribeLinks } from "./ics-subscribe.ts";
import type { SubscriptionScopes } from "./subscription-scopes.ts";

/**
 * The list of every subscription the site publishes (site, calendars,
 * categories, calendar x category pairs), with the links a subscribe panel
 * shows. The search page reads it to offer the subscription that matches the
 * visitor's filters, or the nearest one (docs/feeds.md, "Subscribing to a
 * filter"). Built from the same functions as the panels rendered at build time.
 */

export interface SubscriptionEntry {
  /** Portal id of the calendar, or null when the scope spans calendars. */
  readonly calendar: string | null;
  /** Portal id of the category, or null when the scope spans categories. */
  readonly category: string | null;
  readonly name: string;
  /** Site-relative page that shows the scope's events. */
  readonly page: string;
  /** Absolute https URL of the .ics, and the app links built from it. */
  readonly https: string;
  readonly webcal: string;
  readonly google: string;
  readonly outlook: string;
  readonly office365: string;
  /** Site-relative paths of the feeds and of the QR code image. */
  readonly rss: string;
  readonly atom: string;
  readonly json: string;
  readonly qr: string;
}

export interface SubscriptionsDocument {
  readonly version: 1;
  readonly subscriptions: readonly SubscriptionEntry[];
}

/** Site-relative path of the QR code image (it encodes the webcal URL) next to a scope's calendar.ics. */
export function qrFilePath(scope: FeedScope): string {
  return `${scopeFolderPath(scope)}calendar-qr.svg`;
}

export function subscriptionsDocument(
  scopes: SubscriptionScopes,
  site: { readonly url: string; readonly title: string },
): SubscriptionsDocument {
  const entries = [
    scopes.site,
    ...scopes.calendars,
    ...scopes.categories,
    ...scopes.calendarCategories,
  ];
  return {
    version: 1,
    subscriptions: entries.map(({ scope, calendarId, categoryId }) => {
      const name = scope.kind === "site" ? site.title : scope.name;
      const files = feedFilePaths(scope);
      const links = subscribeLinks(feedUrls(scope, site.url).ics, name);
      return {
        calendar: calendarId,
        category: categoryId,
        name,
        page: files.page,
        https: links.https,
        webcal: links.webcal,
        google: links.google,
        outlook: links.outlook,
        office365: links.office365,
        rss: files.rss,
        atom: files.atom,
        json: files.json,
        qr: qrFilePath(scope),
      };
    }),
  };
}

export function writeSubscriptionsJson(
  scopes: SubscriptionScopes,
  site: { readonly url: string; readonly title: string },
): string {
  return `${JSON.stringify(subscriptionsDocument(scopes, site))}\n`;
}
