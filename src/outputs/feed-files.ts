import type { CalendarEvent } from "../model/types.ts";
import { type FeedScope, paths, scopeFiles, scopeFormats } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup, singleFile } from "../render/file-group.ts";
import { eventShardKey } from "../shards/shard.ts";
import { FeedEntryLifetimes } from "./feed-entry-lifetimes.ts";
import type { FeedScopes } from "./feed-scopes.ts";
import { type FeedOptions, feedFile, feedInputs, type NewsFeedFormat } from "./feeds.ts";
import { feedUrls } from "./feeds-urls.ts";
import {
  calendarFile,
  calendarIcsInputs,
  eventIcsInputs,
  type PublishedVevent,
  renderEventIcs,
} from "./ics.ts";
import { subscribeLinks } from "./ics-subscribe.ts";
import { trimWarning } from "./ics-trim-warning.ts";
import { writeSubscriptionsJson } from "./subscriptions-json.ts";

/**
 * The feed and calendar files of every scope (docs/feeds.md, "Files"): RSS,
 * Atom, JSON Feed, calendar.ics and the QR code of its subscription; the list
 * of subscriptions the search page offers; and one download per event.
 */

type Format = "rss" | "atom" | "json" | "ics";

/** The group of one download per event (hosts limit how many files a site has). */
export const EVENT_ICS_GROUP = "event.ics";

interface ScopeFile {
  readonly scope: FeedScope;
  readonly format: Format;
}

/**
 * The groups of these files. `publishedCopy`: a file's bytes as last
 * published, when rendered from these inputs (FileWriter.publishedCopy),
 * from which a calendar file takes a kept download's VEVENT.
 */
export function feedFileGroups(
  scopes: FeedScopes,
  warn: (message: string) => void,
  publishedCopy?: (path: string, inputs: () => string) => Buffer | undefined,
): readonly FileGroup[] {
  const { data, site } = scopes;
  const files = scopes.withFiles.flatMap((scope) =>
    scopeFormats(scope).map((format): ScopeFile => ({ scope, format })),
  );
  const pathOf = ({ scope, format }: ScopeFile) => scopeFiles(scope)[format];
  const offered = scopes.subscriptions;
  const feeds = files.filter((file) => file.format !== "ics");
  const calendars = files.filter((file) => file.format === "ics");
  // A deleted event's download says it is cancelled (one that moved is at its new place).
  const deleted = data.removed.filter((e) => e.history?.removed?.kind === "deleted");
  const eventIcsOptions = {
    site: { url: site.url, lang: site.lang, title: site.title },
    dataUpdatedAt: scopes.dataUpdatedAt,
    warn,
    vevents: scopes.vevents,
  };
  // Asked by the calendar files before the downloads' group keeps them (it comes after).
  const published: PublishedVevent | undefined =
    publishedCopy && site.eventIcs !== "inline"
      ? (event) =>
          publishedCopy(paths.eventIcs(event), () => eventIcsInputs(event, eventIcsOptions))
      : undefined;
  const qrOf = (scope: FeedScope): [string, string] => [
    feedUrls(scope, site.url).ics,
    scope.kind === "site" ? site.title : scope.name,
  ];
  return [
    fileGroup({
      phase: "feeds",
      name: "feeds",
      items: feeds,
      path: pathOf,
      render: (file) => feedFile(...feedOf(scopes, file)),
      inputs: (file) => feedInputs(...feedOf(scopes, file)),
      after: entryLifetimes(scopes, feeds),
      done: () => scopes.entries.clear(),
    }),
    fileGroup({
      phase: "ics",
      name: "calendar.ics",
      items: calendars,
      path: pathOf,
      render: ({ scope }) =>
        calendarFile(
          scopes.events(scope, "ics"),
          { ...scopes.calendarOptions(scope), ...(published ? { published } : {}) },
          scopes.plan(scope),
        ),
      // Kept while its plan and events are those it was published with.
      inputs: ({ scope }) => calendarIcsInputs(scopes.calendarOptions(scope), scopes.plan(scope)),
    }),
    // The QR code of every subscription as its own image, for pages that
    // show a subscribe panel in the browser (search).
    fileGroup({
      phase: "feeds",
      name: "calendar-qr.svg",
      items: [
        offered.site,
        ...offered.calendars,
        ...offered.categories,
        ...offered.calendarCategories,
      ],
      path: ({ scope }) => scopeFiles(scope).qr,
      render: ({ scope }) => `${subscribeLinks(...qrOf(scope)).qrSvg}\n`,
      // What it encodes and its label: the same code draws the same symbol.
      inputs: ({ scope }) => JSON.stringify(qrOf(scope)),
    }),
    singleFile("feeds", paths.subscriptionsJson(), () => writeSubscriptionsJson(offered, site)),
    fileGroup<CalendarEvent>({
      phase: "ics",
      name: EVENT_ICS_GROUP,
      // EVENT_ICS=inline: the event page's link carries these bytes instead (feeds-plugin.ts).
      items:
        site.eventIcs === "inline"
          ? []
          : deleted.length
            ? [...data.events, ...deleted]
            : data.events,
      path: (event) => paths.eventIcs(event),
      shardKey: eventShardKey,
      render: (event) => renderEventIcs(event, eventIcsOptions),
      inputs: (event) => eventIcsInputs(event, eventIcsOptions),
      // The last group to use the VEVENTs: the scope calendars were written before.
      done: () => scopes.vevents.clear(),
    }),
  ];
}

/**
 * How each scope's calendar file was cut to its size budget, one warning a
 * file: said by every build that writes them, whether a file is rendered or
 * kept as published.
 */
export function calendarTrimWarnings(scopes: FeedScopes): string[] {
  return scopes.withFiles.flatMap((scope) => {
    if (!scopeFormats(scope).includes("ics")) return [];
    const { trim } = scopes.plan(scope);
    return trim ? [trimWarning(scopeFiles(scope).ics, trim, scopes.unreached(scope))] : [];
  });
}

/**
 * After each feed file, once it is its scope's last: the entries no later
 * scope's feeds show are let go (feed-entry-lifetimes.ts). The counts are
 * made at the first file written, so a build that writes no feed makes none.
 */
function entryLifetimes(
  scopes: FeedScopes,
  feeds: readonly ScopeFile[],
): (file: ScopeFile) => void {
  const order: FeedScope[] = [];
  const last = new Map<ScopeFile, number>();
  feeds.forEach((file, at) => {
    if (feeds[at + 1]?.scope === file.scope) return;
    last.set(file, order.length);
    order.push(file.scope);
  });
  let lifetimes: FeedEntryLifetimes | undefined;
  return (file) => {
    const scope = last.get(file);
    if (scope === undefined) return;
    lifetimes ??= new FeedEntryLifetimes(order.length, (at) =>
      scopes.feedEvents(order[at] as FeedScope),
    );
    lifetimes.written(scope, scopes.entries);
  };
}

/** A feed file's events, options and format: what each of its functions in feeds.ts takes. */
function feedOf(
  scopes: FeedScopes,
  { scope, format }: ScopeFile,
): [readonly CalendarEvent[], FeedOptions, NewsFeedFormat] {
  return [scopes.events(scope, "feed"), scopes.feedOptions(scope), format as NewsFeedFormat];
}
