import type { DateTime } from "luxon";
import { timed } from "../metrics.ts";
import type { Calendar, CalendarEvent, Category } from "../model/types.ts";
import { type FeedOptions, renderAtom, renderJsonFeed, renderRss } from "../outputs/feeds.ts";
import {
  eventIcsPath,
  eventPageUrl,
  type FeedFiles,
  type FeedLink,
  type FeedScope,
  feedFilePaths,
  feedLinks,
  feedUrls,
} from "../outputs/feeds-urls.ts";
import { renderCalendar, renderEventIcs } from "../outputs/ics.ts";
import { addToCalendarLinks } from "../outputs/ics-add-to-calendar.ts";
import { subscribeLinks } from "../outputs/ics-subscribe.ts";
import { renderQrSvg } from "../outputs/qr.ts";
import { qrFilePath, writeSubscriptionsJson } from "../outputs/subscriptions-json.ts";
import { subscribedPairs, subscriptionScopes } from "../site/subscription-scopes.ts";
import { addStreamedOutput } from "./streamed-outputs-plugin.ts";

/**
 * Writes the feeds and calendar files (docs/feeds.md) as Eleventy virtual
 * templates and gives page templates filters for autodiscovery, subscribe and
 * add-to-calendar links. Reads only the global data `portal` (`calendars`,
 * `events`, `categories`, `fetchedAt`) and `site` (SiteConfig).
 */

interface PortalData {
  readonly fetchedAt: string;
  readonly calendars: readonly Calendar[];
  readonly events: readonly CalendarEvent[];
  readonly categories?: readonly Pick<Category, "id" | "name">[];
}

/** The SiteConfig fields the writers use. */
interface SiteData {
  readonly url: string;
  readonly title: string;
  readonly description: string;
  readonly lang: string;
  readonly now: DateTime;
  readonly feedPastDays: number;
  readonly feedMaxItems: number;
  readonly cancelledGraceDays: number;
  readonly refreshMinutes: number;
}

interface TemplateData {
  readonly portal: PortalData;
  readonly site: SiteData;
}

type Format = "rss" | "atom" | "json" | "ics";
const FORMATS: readonly Format[] = ["rss", "atom", "json", "ics"];

interface FilePage {
  readonly scope: FeedScope;
  readonly format: Format;
  readonly path: string;
  readonly description: string | null;
  readonly color: string | null;
}

/** The subset of Eleventy's UserConfig this plugin calls. */
interface EleventyConfigLike {
  addTemplate(path: string, content: unknown, data?: unknown): void;
  on(event: string, listener: (...args: never[]) => unknown): void;
  addWatchTarget(path: string): void;
  readonly ignores: Set<string>;
  addTemplateFormats(formats: string): void;
  addFilter(name: string, filter: (...args: never[]) => unknown): void;
}

export default function feedsPlugin(eleventyConfig: EleventyConfigLike): void {
  // The site may restrict templateFormats to njk; virtual .11ty.js need this.
  eleventyConfig.addTemplateFormats("11ty.js");

  for (const format of FORMATS) {
    const scope: FeedScope = { kind: "site" };
    eleventyConfig.addTemplate(`feeds/site-${format}.11ty.js`, {
      data: {
        eleventyExcludeFromCollections: true,
        permalink: feedFilePaths(scope)[format],
      },
      render: (data: TemplateData) => renderFile(data, fileFor(scope, format, null, null)),
    });
  }

  eleventyConfig.addTemplate("feeds/calendars.11ty.js", {
    data: {
      eleventyExcludeFromCollections: true,
      pagination: {
        data: "portal.calendars",
        size: 1,
        alias: "feedFile",
        before: (calendars: readonly Calendar[]) =>
          calendars.flatMap((calendar) =>
            FORMATS.map((format) =>
              fileFor(
                { kind: "calendar", id: calendar.id, name: calendar.name },
                format,
                calendar.description || null,
                calendar.color,
              ),
            ),
          ),
      },
      permalink: (data: { feedFile: FilePage }) => data.feedFile.path,
    },
    render: (data: TemplateData & { feedFile: FilePage }) => renderFile(data, data.feedFile),
  });

  eleventyConfig.addTemplate("feeds/categories.11ty.js", {
    data: {
      eleventyExcludeFromCollections: true,
      pagination: {
        data: "portal.categories",
        size: 1,
        alias: "feedFile",
        before: (categories: readonly Pick<Category, "id" | "name">[] | undefined) =>
          (categories ?? []).flatMap((category) =>
            FORMATS.map((format) =>
              fileFor(
                { kind: "category", id: category.id, name: category.name },
                format,
                null,
                null,
              ),
            ),
          ),
      },
      permalink: (data: { feedFile: FilePage }) => data.feedFile.path,
    },
    render: (data: TemplateData & { feedFile: FilePage }) => renderFile(data, data.feedFile),
  });

  // One calendar's events in one category, for every pair that has events.
  eleventyConfig.addTemplate("feeds/calendar-categories.11ty.js", {
    data: {
      eleventyExcludeFromCollections: true,
      pagination: {
        data: "portal.calendars",
        size: 1,
        alias: "feedFile",
        before: (_calendars: unknown, data: TemplateData) =>
          pairScopes(data).flatMap((scope) =>
            FORMATS.map((format) => fileFor(scope, format, null, null)),
          ),
      },
      permalink: (data: { feedFile: FilePage }) => data.feedFile.path,
    },
    render: (data: TemplateData & { feedFile: FilePage }) => renderFile(data, data.feedFile),
  });

  // The QR code of every subscription as its own image, and the list of every
  // subscription, for pages that show a subscribe panel in the browser (search).
  eleventyConfig.addTemplate("feeds/subscribe-qr.11ty.js", {
    data: {
      eleventyExcludeFromCollections: true,
      pagination: {
        data: "portal.calendars",
        size: 1,
        alias: "qrScope",
        before: (_calendars: unknown, data: TemplateData) => allScopes(data),
      },
      permalink: (data: { qrScope: FeedScope }) => qrFilePath(data.qrScope),
    },
    render: (data: TemplateData & { qrScope: FeedScope }) => {
      const links = subscribeLinks(
        feedUrls(data.qrScope, data.site.url).ics,
        data.qrScope.kind === "site" ? data.site.title : data.qrScope.name,
      );
      return `${links.qrSvg}\n`;
    },
  });
  eleventyConfig.addTemplate("feeds/subscriptions-json.11ty.js", {
    data: { eleventyExcludeFromCollections: true, permalink: SUBSCRIPTIONS_JSON_PATH },
    render: (data: TemplateData) =>
      writeSubscriptionsJson(scopesOf(data), { url: data.site.url, title: data.site.title }),
  });

  // One download per event: streamed, not paginated (see streamed-outputs-plugin.ts).
  addStreamedOutput<CalendarEvent>(eleventyConfig, {
    name: "event.ics",
    items: (data) => (data as unknown as TemplateData).portal.events,
    path: (event) => eventIcsPath(event).slice(1),
    render: (event, data) => {
      const { site, portal } = data as unknown as TemplateData;
      return timed("ics", () =>
        renderEventIcs(event, {
          site: { url: site.url, lang: site.lang },
          fetchedAt: portal.fetchedAt,
        }),
      );
    },
  });

  eleventyConfig.addFilter("feedLinks", function (this: unknown, scope: unknown, kind?: string) {
    return feedLinks(toScope(scope, kind), siteFrom(this));
  });
  eleventyConfig.addFilter("feedUrls", function (this: unknown, scope: unknown, kind?: string) {
    return feedUrls(toScope(scope, kind), siteFrom(this).url);
  });
  eleventyConfig.addFilter("subscribeLinks", (httpsIcsUrl: string, name: string) =>
    subscribeLinks(httpsIcsUrl, name),
  );
  eleventyConfig.addFilter(
    "addToCalendarLinks",
    function (this: unknown, event: CalendarEvent, eventUrl?: string) {
      const site = siteFrom(this);
      return addToCalendarLinks(event, eventUrl ?? eventPageUrl(site.url, event), site.lang);
    },
  );
  eleventyConfig.addFilter("qrSvg", (text: string, label?: string) => renderQrSvg(text, label));
}

/** Where the search page finds the list of subscriptions (docs/feeds.md). */
export const SUBSCRIPTIONS_JSON_PATH = "/search/subscriptions.json";

function pairScopes({ portal, site }: TemplateData) {
  return subscribedPairs(portal.events, portal.calendars, portal.categories, site);
}

function scopesOf({ portal, site }: TemplateData) {
  return subscriptionScopes(portal.events, portal.calendars, portal.categories ?? [], site);
}

function allScopes(data: TemplateData): FeedScope[] {
  const scopes = scopesOf(data);
  return [scopes.site, ...scopes.calendars, ...scopes.categories, ...scopes.calendarCategories].map(
    (entry) => entry.scope,
  );
}

function fileFor(
  scope: FeedScope,
  format: Format,
  description: string | null,
  color: string | null,
): FilePage {
  return { scope, format, path: feedFilePaths(scope)[format], description, color };
}

function renderFile(data: TemplateData, file: FilePage): string {
  return timed(file.format === "ics" ? "ics" : "feeds", () => renderScopeFile(data, file));
}

function renderScopeFile(data: TemplateData, file: FilePage): string {
  const site = data.site;
  const events = eventsInScope(data.portal, file.scope);
  const common = {
    site,
    scope: file.scope,
    fetchedAt: data.portal.fetchedAt,
    ...(file.description ? { description: file.description } : {}),
  };
  if (file.format === "ics") return renderCalendar(events, { ...common, color: file.color });
  const feedOptions: FeedOptions = common;
  if (file.format === "rss") return renderRss(events, feedOptions);
  if (file.format === "atom") return renderAtom(events, feedOptions);
  return renderJsonFeed(events, feedOptions);
}

const byScope = new WeakMap<readonly CalendarEvent[], Map<string, CalendarEvent[]>>();

/** Calendar, category and calendar x category event lists, computed once per events array. */
function eventsInScope(portal: PortalData, scope: FeedScope): readonly CalendarEvent[] {
  if (scope.kind === "site") return portal.events;
  let index = byScope.get(portal.events);
  if (!index) {
    index = new Map();
    for (const event of portal.events) {
      push(index, scopeKey("calendar", event.calendarId), event);
      for (const category of new Set(event.categories.map((c) => c.id))) {
        push(index, scopeKey("category", category), event);
        push(index, scopeKey("calendarCategory", event.calendarId, category), event);
      }
    }
    byScope.set(portal.events, index);
  }
  const key =
    scope.kind === "calendarCategory"
      ? scopeKey(scope.kind, scope.calendarId, scope.categoryId)
      : scopeKey(scope.kind, scope.id);
  return index.get(key) ?? [];
}

function scopeKey(kind: FeedScope["kind"], ...ids: string[]): string {
  return JSON.stringify([kind, ...ids]);
}

function push(index: Map<string, CalendarEvent[]>, key: string, event: CalendarEvent): void {
  const list = index.get(key);
  if (list) list.push(event);
  else index.set(key, [event]);
}

/**
 * Filter scope argument: "/" or "site" for the whole site; a calendar or a
 * category object ({ id, name }), with `kind` "calendar" or "category". Without
 * `kind`, an object with a `timeZone` is taken for a calendar.
 */
function toScope(value: unknown, kind?: string): FeedScope {
  if (value === "/" || value === "site" || value === undefined || value === null) {
    return { kind: "site" };
  }
  if (typeof value === "object" && (value as { kind?: unknown }).kind === "calendarCategory") {
    return value as FeedScope;
  }
  if (typeof value === "object" && "id" in value && "name" in value) {
    const { id, name } = value as { id: unknown; name: unknown };
    const resolved = kind ?? ("timeZone" in value ? "calendar" : "category");
    if (resolved === "calendar" || resolved === "category") {
      return { kind: resolved, id: String(id), name: String(name) };
    }
  }
  throw new Error(
    `feeds filter: expected "/" or a calendar/category object with kind "calendar" or "category", got ${JSON.stringify(value)}`,
  );
}

/** The `site` global from the filter's context (nunjucks `this.ctx`, 11ty.js `this`). */
function siteFrom(context: unknown): { url: string; title: string; lang: string } {
  const holder = context as { ctx?: { site?: SiteData }; site?: SiteData } | undefined;
  const site = holder?.ctx?.site ?? holder?.site;
  if (!site?.url) throw new Error("feeds filters need the global data `site` (SiteConfig)");
  return site;
}

export type { FeedFiles, FeedLink };
