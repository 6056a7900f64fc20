import { digestFiles, hasDigest, type SiteUrls, scopeFiles } from "../model/url-scheme.ts";
import { feedUrls } from "./feeds-urls.ts";
import { subscribeUrls } from "./ics-subscribe.ts";
import type { SubscriptionScopes } from "./subscription-scopes.ts";
import type { SubscriptionsDocument } from "./subscriptions-json-types.ts";

/**
 * The list of every subscription the site publishes (site, calendars,
 * categories, calendar x category pairs), with the links a subscribe panel
 * shows. The search page reads it to offer the subscription that matches the
 * visitor's filters, or the nearest one (docs/feeds.md, "Subscribing to a
 * filter"). Built from the same functions as the panels rendered at build time;
 * the QR codes are files of their own (`qr`), so none is drawn for this list.
 */

function subscriptionsDocument(
  scopes: SubscriptionScopes,
  site: { readonly url: string; readonly urls: SiteUrls; readonly title: string },
): SubscriptionsDocument {
  const entries = [
    scopes.site,
    ...scopes.calendars,
    ...scopes.categories,
    ...scopes.calendarCategories,
  ];
  const href = (path: string) => site.urls.href(path);
  return {
    version: 1,
    subscriptions: entries.map(({ scope, calendarId, categoryId }) => {
      const name = scope.kind === "site" ? site.title : scope.name;
      const files = scopeFiles(scope);
      const links = subscribeUrls(feedUrls(scope, site.url).ics, name);
      return {
        calendar: calendarId,
        category: categoryId,
        name,
        page: href(files.page),
        https: links.https,
        webcal: links.webcal,
        google: links.google,
        outlook: links.outlook,
        office365: links.office365,
        rss: href(files.rss),
        atom: href(files.atom),
        json: href(files.json),
        qr: href(files.qr),
        digest: hasDigest(scope) ? href(digestFiles(scope).rss) : null,
      };
    }),
  };
}

export function writeSubscriptionsJson(
  scopes: SubscriptionScopes,
  site: { readonly url: string; readonly urls: SiteUrls; readonly title: string },
): string {
  return `${JSON.stringify(subscriptionsDocument(scopes, site))}\n`;
}
