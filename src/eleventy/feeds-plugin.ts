import type { DateTime } from "luxon";
import type { Announcement } from "../changes/published-state.ts";
import { timed } from "../metrics.ts";
import type { Calendar, CalendarEvent, Category } from "../model/types.ts";
import { type FeedOptions, renderAtom, renderJsonFeed, renderRss } from "../outputs/feeds.ts";
import { announcementsInScope } from "../outputs/feeds-announcements.ts";
import {
  type CalendarCategoryScope,
  eventIcsPath,
  eventPageUrl,
  type FeedFiles,
  type FeedLink,
  type FeedScope,
  feedFilePaths,
  feedLinks,
  feedUrls,
} from "../outputs/feeds-urls.ts";
import {
  type CalendarOptions,
  type IcsTrim,
  planCalendar,
  renderCalendar,
  renderEventIcs,
} from "../outputs/ics.ts";
import { addToCalendarLinks } from "../outputs/ics-add-to-calendar.ts";
import { subscribeLinks } from "../outputs/ics-subscribe.ts";
import { renderQrSvg } from "../outputs/qr.ts";
import {
  calendarCategoryScopes,
  subscribedPairs,
  subscriptionScopes,
} from "../outputs/subscription-scopes.ts";
import { qrFilePath, writeSubscriptionsJson } from "../outputs/subscriptions-json.ts";
import { withRemovedCategories } from "../site/removed-pages.ts";
import { addOutputWarning } from "./output-warnings.ts";
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
  /** Events gone from the portal, published as cancelled for a while (src/changes). */
  readonly removed?: readonly CalendarEvent[];
  /** Change announcements, newest first (src/changes). */
  readonly announcements?: readonly Announcement[];
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
  readonly websubHub?: string | null;
  readonly icsMaxBytes?: number | null;
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
        before: (
          categories: readonly Pick<Category, "id" | "name">[] | undefined,
          data: TemplateData,
        ) =>
          withRemovedCategories(categories ?? [], data.portal.removed ?? []).flatMap((category) =>
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
  // A deleted event's download says it is cancelled (one that moved is at its new place).
  addStreamedOutput<CalendarEvent>(eleventyConfig, {
    name: "event.ics",
    items: (data) => {
      const { portal } = data as unknown as TemplateData;
      const deleted = (portal.removed ?? []).filter((e) => e.history?.removed?.kind === "deleted");
      return deleted.length ? [...portal.events, ...deleted] : portal.events;
    },
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
  // How a scope's calendar.ics was trimmed to its size budget (null: it was not).
  eleventyConfig.addFilter("icsTrim", function (this: unknown, scope: unknown, kind?: string) {
    const data = dataFrom(this);
    const resolved = toScope(scope, kind);
    return planCalendar(
      eventsInScope(data.portal, resolved, "ics"),
      calendarOptions(data, resolved),
    ).trim;
  });
}

/** Where the search page finds the list of subscriptions (docs/feeds.md). */
export const SUBSCRIPTIONS_JSON_PATH = "/search/subscriptions.json";

/**
 * The pairs with files: those of the site's events, and, while a deleted
 * event is published as cancelled, the pairs it was in (their subscribers
 * must get the cancellation). The latter are not offered to new
 * subscribers (subscriptions.json, the subscribe page).
 */
function pairScopes({ portal, site }: TemplateData): CalendarCategoryScope[] {
  const pairs = subscribedPairs(portal.events, portal.calendars, portal.categories, site);
  const deleted = (portal.removed ?? []).filter((e) => e.history?.removed?.kind === "deleted");
  if (deleted.length === 0) return pairs;
  const key = (pair: CalendarCategoryScope) =>
    scopeKey(pair.kind, pair.calendarId, pair.categoryId);
  const known = new Set(pairs.map(key));
  const categories = withRemovedCategories(portal.categories ?? [], deleted);
  const extra = calendarCategoryScopes(deleted, portal.calendars, categories);
  return [...pairs, ...extra.filter((pair) => !known.has(key(pair)))];
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
  if (file.format === "ics") {
    const events = eventsInScope(data.portal, file.scope, "ics");
    const options = calendarOptions(data, file.scope);
    const trim = planCalendar(events, options).trim;
    if (trim) addOutputWarning(trimWarning(file.path, trim));
    return renderCalendar(events, options);
  }
  const events = eventsInScope(data.portal, file.scope, "feed");
  const feedOptions: FeedOptions = {
    site: data.site,
    scope: file.scope,
    fetchedAt: data.portal.fetchedAt,
    ...(file.description ? { description: file.description } : {}),
    announcements: announcementsInScope(data.portal.announcements ?? [], file.scope),
  };
  if (file.format === "rss") return renderRss(events, feedOptions);
  if (file.format === "atom") return renderAtom(events, feedOptions);
  return renderJsonFeed(events, feedOptions);
}

/** The options of a scope's calendar.ics, for the file and for the filter that tells of its trimming. */
function calendarOptions(data: TemplateData, scope: FeedScope): CalendarOptions {
  let description: string | null = null;
  let color: string | null = null;
  if (scope.kind === "calendar") {
    const calendar = data.portal.calendars.find((c) => c.id === scope.id);
    description = calendar?.description || null;
    color = calendar?.color ?? null;
  }
  return {
    site: data.site,
    scope,
    fetchedAt: data.portal.fetchedAt,
    ...(description ? { description } : {}),
    color,
  };
}

function trimWarning(path: string, trim: IcsTrim): string {
  const parts: string[] = [];
  if (trim.droppedFuture > 0) {
    const from = trim.horizon ? ` starting from ${day(trim.horizon)}` : "";
    parts.push(`left out ${counted(trim.droppedFuture, "event")}${from}`);
  }
  if (trim.shortened > 0) parts.push(`shortened ${counted(trim.shortened, "description")}`);
  if (trim.droppedPast > 0) parts.push(`left out ${counted(trim.droppedPast, "past event")}`);
  if (trim.droppedCurrent > 0) {
    parts.push(`left out ${counted(trim.droppedCurrent, "event")} under way`);
  }
  // Cancellations go last and only when they alone are over the budget (ics-budget.ts):
  // the warning names the dates beyond which subscribers no longer receive them.
  if (trim.droppedCancelledFuture > 0) {
    const from = trim.cancelledHorizon ? ` starting from ${day(trim.cancelledHorizon)}` : "";
    parts.push(`left out ${counted(trim.droppedCancelledFuture, "cancellation")} of events${from}`);
  }
  if (trim.droppedCancelledPast > 0) {
    const until = trim.cancelledPastUntil ? ` that ended by ${day(trim.cancelledPastUntil)}` : "";
    parts.push(`left out ${counted(trim.droppedCancelledPast, "cancellation")} of events${until}`);
  }
  if (trim.droppedCancelledCurrent > 0) {
    parts.push(
      `left out ${counted(trim.droppedCancelledCurrent, "cancellation")} of events under way`,
    );
  }
  const over = `over ICS_MAX_BYTES (${bytes(trim.maxBytes)})`;
  // RFC 5545 3.6: a calendar keeps at least one event, whatever the budget.
  const single = "ICS_MAX_BYTES is smaller than the calendar's header and one event";
  if (parts.length === 0) {
    return `${path} is ${bytes(trim.fullBytes)} with a single event, ${over}: ${single}.`;
  }
  const result = trim.overBudget
    ? `still ${bytes(trim.bytes)} with a single event: ${single}`
    : `now at most ${bytes(trim.bytes)}`;
  return `${path} would be ${bytes(trim.fullBytes)}, ${over}: ${parts.join(", ")}; ${result}. Subscribers of the calendar and category files get the rest.`;
}

/** "1 event", "1,608 events". */
const counted = (count: number, noun: string): string =>
  `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;

/** The UTC date of an ISO instant: "2026-08-15". */
const day = (iso: string): string => iso.slice(0, 10);

/** Exact, in the unit of the setting: "1,180,345 bytes". */
function bytes(count: number): string {
  return `${count.toLocaleString("en-US")} bytes`;
}

type Purpose = "ics" | "feed";

const NO_EVENTS: readonly CalendarEvent[] = [];

// Keyed by the events array, which every template's copy of the data shares.
const byScope = new WeakMap<
  readonly CalendarEvent[],
  { removed: readonly CalendarEvent[]; index: Map<string, CalendarEvent[]> }
>();

/**
 * Calendar, category and calendar x category event lists, computed once per
 * events array. The events that left the portal stay where they were
 * published: a deleted one in the files (feeds and subscriptions) of the
 * site, its calendar, its categories and its pairs; one that moved to
 * another calendar only in the subscription of the calendar it left
 * (everywhere else it is the same event under the same UID).
 */
function eventsInScope(
  portal: PortalData,
  scope: FeedScope,
  purpose: Purpose,
): readonly CalendarEvent[] {
  const removed = portal.removed ?? NO_EVENTS;
  if (scope.kind === "site" && removed.length === 0) return portal.events;
  const known = byScope.get(portal.events);
  let index = known?.removed === removed ? known.index : undefined;
  if (!index) {
    const built = new Map<string, CalendarEvent[]>();
    const add = (event: CalendarEvent, purposes: readonly Purpose[], keys: readonly string[]) => {
      for (const use of purposes) for (const key of keys) push(built, `${use}:${key}`, event);
    };
    const keysOf = (event: CalendarEvent) => [
      scopeKey("site"),
      scopeKey("calendar", event.calendarId),
      ...[...new Set(event.categories.map((c) => c.id))].flatMap((category) => [
        scopeKey("category", category),
        scopeKey("calendarCategory", event.calendarId, category),
      ]),
    ];
    for (const event of portal.events) add(event, ["ics", "feed"], keysOf(event));
    for (const event of removed) {
      if (event.history?.removed?.kind === "moved") {
        add(event, ["ics"], [scopeKey("calendar", event.calendarId)]);
      } else add(event, ["ics", "feed"], keysOf(event));
    }
    byScope.set(portal.events, { removed, index: built });
    index = built;
  }
  const key =
    scope.kind === "site"
      ? scopeKey("site")
      : scope.kind === "calendarCategory"
        ? scopeKey(scope.kind, scope.calendarId, scope.categoryId)
        : scopeKey(scope.kind, scope.id);
  return index.get(`${purpose}:${key}`) ?? [];
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

/** The `portal` and `site` globals from a filter's context. */
function dataFrom(context: unknown): TemplateData {
  const holder = context as { ctx?: Partial<TemplateData> } | undefined;
  const portal = holder?.ctx?.portal;
  if (!portal) throw new Error("feeds filters need the global data `portal`");
  return { portal, site: siteFrom(context) as SiteData };
}

/** The `site` global from the filter's context (nunjucks `this.ctx`, 11ty.js `this`). */
function siteFrom(context: unknown): { url: string; title: string; lang: string } {
  const holder = context as { ctx?: { site?: SiteData }; site?: SiteData } | undefined;
  const site = holder?.ctx?.site ?? holder?.site;
  if (!site?.url) throw new Error("feeds filters need the global data `site` (SiteConfig)");
  return site;
}

export type { FeedFiles, FeedLink };
