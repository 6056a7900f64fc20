/**
 * /search/subscriptions.json (subscriptions-json.ts), the list the search
 * page reads (src/site/browser/search.ts): types only, so the browser's
 * code checks against the same declaration.
 */

export interface SubscriptionEntry {
  /** Portal id of the calendar, or null when the scope spans calendars. */
  readonly calendar: string | null;
  /** Portal id of the category, or null when the scope spans categories. */
  readonly category: string | null;
  readonly name: string;
  /** Link (root-relative, with the site's folder) to the page that shows the scope's events. */
  readonly page: string;
  /** Absolute https URL of the .ics, and the app links built from it. */
  readonly https: string;
  readonly webcal: string;
  readonly google: string;
  readonly outlook: string;
  readonly office365: string;
  /** Links (root-relative) to the feeds and to the QR code image. */
  readonly rss: string;
  readonly atom: string;
  readonly json: string;
  readonly qr: string;
  /** Link (root-relative) to the weekly digest's feed (src/digest); null for a pair, which has none. */
  readonly digest: string | null;
}

export interface SubscriptionsDocument {
  readonly version: 1;
  readonly subscriptions: readonly SubscriptionEntry[];
}
