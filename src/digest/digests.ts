import type { Announcement } from "../changes/published-state.ts";
import { count } from "../metrics.ts";
import { eventDigest } from "../model/event-digest.ts";
import type { Calendar, CalendarEvent, Category } from "../model/types.ts";
import type { DigestScope } from "../model/url-scheme.ts";
import { announcementsInScope } from "../outputs/feeds-announcements.ts";
import { eventDays } from "../site/when/event-days.ts";
import { type Digest, type DigestSite, digestOf, sinceLastWeek } from "./digest-content.ts";
import { type DigestWeek, digestWeeks } from "./digest-week.ts";

/**
 * Every digest of one build: the whole site's, each calendar's and each
 * category's, for the weeks its feeds keep (digest-week.ts), each made once
 * and shared by the files that show it (its feed, and the latest week's
 * HTML and text). One pass over the site's events picks those that any of
 * the weeks can show; each scope then reads only those.
 *
 * A scope's files name as inputs what its digests are made from (`inputs`),
 * the events by their digests, not the digests made: a build that keeps a
 * scope's files does not make its digests at all.
 */

/** What the digests are made from: the site's data (src/site/load.ts). */
export interface DigestData {
  readonly events: readonly CalendarEvent[];
  readonly calendars: readonly Calendar[];
  readonly categories: readonly Pick<Category, "id" | "name">[];
  /** Change announcements, newest first (src/changes). */
  readonly announcements: readonly Announcement[];
}

export class Digests {
  readonly site: DigestSite;
  /** The weeks, newest first: the latest digest, and those the feeds keep. */
  readonly weeks: readonly DigestWeek[];
  /** The site, each calendar, each category. */
  readonly scopes: readonly DigestScope[];
  readonly #announcements: readonly Announcement[];
  /** Events on any day of the weeks, in the site's order. */
  readonly #onDays: readonly CalendarEvent[];
  /** Events created in any of the weeks' "since last week", in the site's order. */
  readonly #created: readonly CalendarEvent[];
  readonly #sources = new Map<string, ScopeSources>();
  readonly #inputs = new Map<string, string>();
  readonly #digests = new Map<string, readonly Digest[]>();

  constructor(data: DigestData, site: DigestSite) {
    this.site = site;
    this.weeks = digestWeeks(site);
    this.scopes = [
      { kind: "site" },
      ...data.calendars.map((c): DigestScope => ({ kind: "calendar", id: c.id, name: c.name })),
      ...data.categories.map((c): DigestScope => ({ kind: "category", id: c.id, name: c.name })),
    ];
    this.#announcements = data.announcements;
    const oldest = this.weeks.at(-1) ?? this.weeks[0];
    const newest = this.weeks[0];
    const onDays: CalendarEvent[] = [];
    const created: CalendarEvent[] = [];
    if (oldest && newest) {
      const from = sinceLastWeek(oldest).from;
      const until = sinceLastWeek(newest).until;
      for (const event of data.events) {
        const days = eventDays(event, site.timeZone);
        if (days.first <= newest.last && days.last >= oldest.first) onDays.push(event);
        const at = event.createdAt ? Date.parse(event.createdAt) : Number.NaN;
        if (at >= from && at < until) created.push(event);
      }
    }
    this.#onDays = onDays;
    this.#created = created;
  }

  /**
   * Everything a scope's digests are made from, as text: the settings
   * digestOf reads, the weeks, and the scope's events, new events and
   * announcements (each event by its digest). Equal inputs, equal digests.
   */
  inputs(scope: DigestScope): string {
    const key = scopeKey(scope);
    let inputs = this.#inputs.get(key);
    if (inputs === undefined) {
      const { url, urls, title, lang, timeZone } = this.site;
      const { events, created, announcements } = this.#sourcesOf(scope);
      inputs = JSON.stringify([
        [url, urls.siteUrl, title, lang, timeZone],
        this.weeks,
        scope,
        events.map(eventDigest),
        created.map(eventDigest),
        announcements,
      ]);
      this.#inputs.set(key, inputs);
    }
    return inputs;
  }

  /** A scope's digests, one per week, newest first. */
  of(scope: DigestScope): readonly Digest[] {
    const key = scopeKey(scope);
    let digests = this.#digests.get(key);
    if (!digests) {
      count("digest.scopesMade");
      const { events, created, announcements } = this.#sourcesOf(scope);
      digests = this.weeks.map((week) => {
        const { from, until } = sinceLastWeek(week);
        return digestOf(
          {
            scope,
            week,
            events,
            created: created.filter((event) => {
              const at = Date.parse(event.createdAt ?? "");
              return at >= from && at < until;
            }),
            announcements,
          },
          this.site,
        );
      });
      this.#digests.set(key, digests);
    }
    return digests;
  }

  /** A scope's events on the weeks' days, events created in them, and announcements. */
  #sourcesOf(scope: DigestScope): ScopeSources {
    const key = scopeKey(scope);
    let sources = this.#sources.get(key);
    if (!sources) {
      sources = {
        events: this.#onDays.filter((event) => inScope(event, scope)),
        created: this.#created.filter((event) => inScope(event, scope)),
        announcements: announcementsInScope(this.#announcements, scope),
      };
      this.#sources.set(key, sources);
    }
    return sources;
  }

  /** Lets the digests go once their files are written. */
  clear(): void {
    this.#digests.clear();
    this.#sources.clear();
    this.#inputs.clear();
  }

  /** A scope's latest digest: the one its latest.html and latest.txt show. */
  latest(scope: DigestScope): Digest {
    const [latest] = this.of(scope);
    if (!latest) throw new Error("A digest has at least one week.");
    return latest;
  }
}

interface ScopeSources {
  readonly events: readonly CalendarEvent[];
  readonly created: readonly CalendarEvent[];
  readonly announcements: readonly Announcement[];
}

function scopeKey(scope: DigestScope): string {
  return JSON.stringify([scope.kind, scope.kind === "site" ? "" : scope.id]);
}

function inScope(event: CalendarEvent, scope: DigestScope): boolean {
  if (scope.kind === "calendar") return event.calendarId === scope.id;
  if (scope.kind === "category") return event.categories.some((c) => c.id === scope.id);
  return true;
}
