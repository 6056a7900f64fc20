import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count, timed } from "../metrics.ts";
import { calendarIdsOf } from "../model/event-calendars.ts";
import { eventDigest } from "../model/event-digest.ts";
import { type ShownReads, scopeRead } from "../model/shown-reads.ts";
import type { CalendarEvent } from "../model/types.ts";
import type { PlaceSummary } from "../places/place-index.ts";
import { contentHash } from "../render/published-files.ts";
import type { FilterLookup, PagesRecord } from "../render/streamed-pages.ts";
import { replaceFileSync } from "../replace-file-sync.ts";
import type { SeriesSummary } from "../series/series-index.ts";
import type { SiteData } from "../site/load.ts";
import { EVENT_PAGE_TEMPLATE } from "./event-page-inputs.ts";
import { listingScopeOf, listingSiteParts } from "./listing-page-inputs.ts";
import { siteWideInputs } from "./site-wide-inputs.ts";

type Data = Record<string, unknown>;

/**
 * The record a build keeps of its streamed pages (the event pages and the
 * listings), so that the next build asks the inputs only of the pages an
 * edit can have changed: for each page, the digest of its inputs and what
 * they read (the events whose digests they took, and the scopes whose
 * derived values they show: src/model/shown-reads.ts). Without it, one
 * edited event made, hashed and looked up the inputs of every page
 * (docs/performance.md, "The page record").
 *
 * The next build trusts it only where nothing else moved, and asks every
 * page otherwise (and writes a new record):
 *
 * - the same code (its fingerprint), and the same inputs every page shares:
 *   the settings and the site's own data, what the listings' navigation
 *   shows of the site, the calendars, the site's share card and each
 *   calendar's feed links (`context`);
 * - the same events, in the same order, each where it was: its calendars,
 *   categories, place, start, end and status (`placement`), so that every
 *   list, month and page number holds the same events (a new title may move
 *   an event to another series: every date of both series counts as edited);
 * - a clock between the record's and the next moment at which anything
 *   date-relative moves (`until`: src/rebuild/next-change.ts).
 *
 * Then a page is asked when it read an edited event, or a scope one is in;
 * any other page is kept by the digest its inputs had, and only while the
 * published list has that digest for it (FileWriter.keepDigest): a record
 * of a build that was not published vouches for nothing that was not.
 *
 * With `verify` (PAGE_RECORD=verify), every page is asked all the same,
 * and a page the record vouched for whose inputs changed fails the build:
 * what the tests build incrementally with.
 */

export interface PageRecordSettings {
  /** Where the record is kept (the build's cache folder). */
  readonly file: string;
  /** The build's clock (ms). */
  readonly now: number;
  /**
   * When the published site next changes by date alone (nextDateChange, or
   * sooner where a calendar file's size budget would cut it otherwise:
   * FeedScopes.plansChangeAt), or null.
   */
  readonly until: number | null;
  readonly verify: boolean;
  /** What the host's transform does to every page (src/eleventy/publisher-plugin.ts). */
  readonly hostInputs: string;
}

/** The record's form: a record of another is not read. */
export const PAGE_RECORD_VERSION = 5;

/** The record's file in the build's cache folder (each language's folder has its own). */
export const PAGE_RECORD_FILE = "page-record.json";

/**
 * The record's first line: what decides whether the rest is read at all. A
 * build on a new day or with new code or settings trusts no record, and
 * leaves the rest (24 MB at 100,000 events) unread.
 */
export interface RecordHead {
  readonly version: number;
  readonly code: string;
  readonly context: string;
  readonly now: number;
  readonly until: number | null;
  /** When the site's data last changed (SiteData.updatedAt). */
  readonly updatedAt: string | null;
}

/** The rest of the record, on its second line. */
export interface RecordBody {
  /** Each event in the data's order: its digest, series, placement and key, tab-separated. */
  readonly events: readonly string[];
  readonly scopes: readonly string[];
  /** Each place's and series' value (EventScopes.value), by scope key. */
  readonly values: Readonly<Record<string, string>>;
  /** Path -> "digest|event numbers|scope numbers" (numbers comma-separated). */
  readonly pages: Readonly<Record<string, string>>;
}

type RecordFile = RecordHead & RecordBody;

/**
 * The run's record: the last build's, where this build may trust it, and
 * this build's, made as its pages are visited.
 */
export function pageRecord(
  settings: PageRecordSettings,
  globals: Data,
  filter: FilterLookup,
): PagesRecord | undefined {
  const portal = globals.portal as SiteData | undefined;
  if (!portal) return undefined;
  return timed("render", () => new PageRecord(settings, globals, portal, filter));
}

class PageRecord implements PagesRecord {
  readonly #settings: PageRecordSettings;
  readonly #where: EventScopes;
  readonly #context: string;
  readonly #code = codeFingerprint();
  readonly #events: readonly CalendarEvent[];
  readonly #updatedAt: string | null;
  readonly #eventNumbers = new Map<CalendarEvent, number>();
  /** The last build's record, when it can be trusted. */
  readonly #last: RecordFile | null;
  /** Events edited since the last record (or in a series that changed), by number. */
  readonly #edited = new Set<number>();
  /** The scopes of the edited events: their pages and what they derive from their events moved. */
  readonly #dirtyScopes = new Set<string>();
  readonly #scopeNumbers = new Map<string, number>();
  readonly #scopes: string[] = [];
  /** This build's pages, in the order visited: path -> "digest|event numbers|scope numbers". */
  readonly #pages = new Map<string, string>();
  /**
   * The last page that named each event and scope, by number: a page names
   * each once however often its inputs read it, without a set of its own.
   */
  readonly #eventSeen: Int32Array;
  readonly #scopeSeen: number[] = [];
  #asked = 0;
  /** The last record's line of each event it has unchanged, by number: this record's too. */
  #lines: readonly (string | undefined)[] = [];
  /** Verify: the digests the record vouched for, by path. */
  readonly #vouched = new Map<string, string>();
  readonly #countJsonLd: (event: unknown) => unknown;

  constructor(settings: PageRecordSettings, globals: Data, portal: SiteData, filter: FilterLookup) {
    this.#settings = settings;
    this.#countJsonLd = filter("countEventJsonLd");
    this.#where = new EventScopes(portal, filter);
    this.#context = recordContext(globals, portal, filter, settings.hostInputs);
    this.#events = portal.events;
    this.#updatedAt = portal.updatedAt;
    for (const [number, event] of portal.events.entries()) this.#eventNumbers.set(event, number);
    this.#eventSeen = new Int32Array(portal.events.length);
    this.#last = this.#trusted(settings.file);
    if (this.#last) {
      for (const [number, key] of this.#last.scopes.entries()) this.#number(key, number);
    }
    count("pageRecord.trusted", this.#last ? 1 : 0);
    count("pageRecord.editedEvents", this.#edited.size);
  }

  unchanged(_template: string, _item: unknown, path: string): string | undefined {
    const last = this.#last;
    const entry = this.#entry(path);
    if (last === null || entry === undefined) return undefined;
    const [digest = "", events = "", scopes = ""] = entry.split("|");
    if (events !== "" && this.#edited.size > 0) {
      if (events.split(",").some((number) => this.#edited.has(Number(number)))) return undefined;
    }
    if (scopes !== "" && this.#dirtyScopes.size > 0) {
      const dirty = (number: string) => this.#dirtyScopes.has(last.scopes[Number(number)] ?? "");
      if (scopes.split(",").some(dirty)) return undefined;
    }
    count("pageRecord.vouched");
    if (this.#settings.verify) {
      this.#vouched.set(path, digest);
      return undefined;
    }
    return digest;
  }

  carried(template: string, item: unknown, path: string): void {
    const entry = this.#entry(path);
    if (entry !== undefined) this.#pages.set(path, entry);
    // An event page's inputs count its JSON-LD for the build report's rich results
    // (src/eleventy/event-page-inputs.ts); a page kept without them is counted all the same.
    if (template === EVENT_PAGE_TEMPLATE) this.#countJsonLd((item as { event: unknown }).event);
  }

  asked(template: string, item: unknown, path: string, digest: string, reads: ShownReads): void {
    const vouched = this.#vouched.get(path);
    if (vouched !== undefined && vouched !== digest) {
      throw new Error(
        `The page record vouched for ${path} (${template}), whose inputs changed: what they read is not all recorded.`,
      );
    }
    const visit = ++this.#asked;
    let events = "";
    for (const event of reads.events) {
      const number = this.#eventNumbers.get(event);
      // An event the record cannot name (one gone from the portal, still shown as
      // cancelled): the page is asked every build until it no longer shows it.
      if (number === undefined) return;
      if (this.#eventSeen[number] === visit) continue;
      this.#eventSeen[number] = visit;
      events += events === "" ? `${number}` : `,${number}`;
    }
    let scopes = "";
    const add = (key: string) => {
      const number = this.#number(key);
      if (this.#scopeSeen[number] === visit) return;
      this.#scopeSeen[number] = visit;
      scopes += scopes === "" ? `${number}` : `,${number}`;
    };
    for (const key of reads.scopes) add(key);
    for (const key of this.#pageScopes(template, item)) add(key);
    this.#pages.set(path, `${digest}|${events}|${scopes}`);
  }

  finish(): void {
    const record = {
      version: PAGE_RECORD_VERSION,
      code: this.#code,
      context: this.#context,
      now: this.#settings.now,
      until: this.#settings.until,
      updatedAt: this.#updatedAt,
      events: this.#events.map((event, number) => this.#lines[number] ?? this.#line(event)),
      scopes: this.#scopes,
      values: this.#values(),
      pages: this.#pages,
    };
    timed("write", () => writeRecord(this.#settings.file, record));
  }

  /**
   * The last record, when this build may trust it (see the module's
   * comment), with the events edited since and their scopes noted; else null.
   * A title edit may take an event out of its series or into another
   * (src/series/series-key.ts): those series' events count as edited.
   */
  #trusted(file: string): RecordFile | null {
    const { now } = this.#settings;
    const distrust = (reason: string) => {
      count(`pageRecord.distrusted.${reason}`);
      this.#edited.clear();
      this.#dirtyScopes.clear();
      return null;
    };
    const kept = readRecord(file);
    if (!kept) return distrust("none");
    const { head } = kept;
    if (head.code !== this.#code) return distrust("code");
    if (head.context !== this.#context) return distrust("context");
    if (now < head.now || (head.until !== null && now >= head.until)) return distrust("clock");
    const body = kept.body();
    if (!body) return distrust("none");
    const last: RecordFile = { ...head, ...body };
    if (last.events.length !== this.#events.length) return distrust("events");
    const lines: (string | undefined)[] = [];
    const movedSeries = new Set<string>();
    const edited = new Set<string>();
    const series: string[] = [];
    for (const [number, event] of this.#events.entries()) {
      const line = last.events[number] ?? "";
      const digest = eventDigest(event);
      const seriesNow = this.#where.series(event) ?? NO_SERIES;
      series.push(seriesNow);
      // The same digest is the same event, ids and all, as the last build read it.
      if (line.startsWith(`${digest}${SEPARATOR}${seriesNow}${SEPARATOR}`)) {
        lines[number] = line;
        continue;
      }
      const [, lastSeries, placement, key] = line.split(SEPARATOR);
      if (key !== eventKey(event)) return distrust("events");
      if (seriesNow !== lastSeries) movedSeries.add(lastSeries ?? NO_SERIES).add(seriesNow);
      // Another digest, or another series: edited, and trusted only where it was.
      if (placement !== this.#where.placement(event)) return distrust("placement");
      this.#edited.add(number);
      for (const scope of this.#where.scopes(event)) edited.add(scope);
    }
    // A place or series shows what it derives from its events (a name, a
    // rule, a share card): its pages moved only if that did.
    for (const scope of edited) {
      const value = this.#where.value(scope);
      const before = Object.hasOwn(last.values, scope) ? last.values[scope] : undefined;
      if (value === undefined || value !== before) this.#dirtyScopes.add(scope);
    }
    if (last.updatedAt !== this.#updatedAt) this.#dirtyScopes.add(scopeRead.siteUpdated);
    this.#dirtyScopes.add(scopeRead.always);
    movedSeries.delete(NO_SERIES);
    if (movedSeries.size > 0) {
      for (const [number, key] of series.entries()) {
        if (!movedSeries.has(key)) continue;
        this.#edited.add(number);
        lines[number] = undefined;
      }
      for (const key of movedSeries) this.#dirtyScopes.add(key);
    }
    this.#lines = lines;
    return last;
  }

  /** The last record's entry of a page, when it is trusted and has one. */
  #entry(path: string): string | undefined {
    const last = this.#last;
    return last && Object.hasOwn(last.pages, path) ? last.pages[path] : undefined;
  }

  /** The places' and series' values: the last record's where none of their events was edited. */
  #values(): Record<string, string> {
    const values: Record<string, string> = Object.create(null);
    const last = this.#last?.values;
    for (const scope of this.#where.valued()) {
      const kept =
        last && !this.#dirtyScopes.has(scope) && Object.hasOwn(last, scope)
          ? last[scope]
          : undefined;
      const value = kept ?? this.#where.value(scope);
      if (value !== undefined) values[scope] = value;
    }
    return values;
  }

  #line(event: CalendarEvent): string {
    const where = this.#where;
    return [
      eventDigest(event),
      where.series(event) ?? NO_SERIES,
      where.placement(event),
      eventKey(event),
    ].join(SEPARATOR);
  }

  /** The scopes a page shows beside what its inputs gathered. */
  #pageScopes(template: string, item: unknown): readonly string[] {
    if (template === EVENT_PAGE_TEMPLATE) {
      const { event } = item as { event: CalendarEvent };
      // Its place's name and its series' dates and rule are its place's and series'.
      const where = this.#where;
      return [where.place(event), where.series(event)].filter((key) => key !== null);
    }
    return listingScopeOf(template, item);
  }

  #number(key: string, at?: number): number {
    let number = this.#scopeNumbers.get(key);
    if (number === undefined) {
      number = at ?? this.#scopes.length;
      this.#scopeNumbers.set(key, number);
      this.#scopes[number] = key;
    }
    return number;
  }
}

/** The fields of an event's line in the record: its digest, series, placement and key. */
const SEPARATOR = "\t";
const NO_SERIES = "-";

/** An event's identity in the record. */
function eventKey(event: CalendarEvent): string {
  return JSON.stringify([event.calendarId, event.id]);
}

/** The scopes an event is in, by the keys pages read them with (scopeRead). */
class EventScopes {
  readonly #views: SiteData["views"];
  readonly #shareCard: (scope: unknown) => unknown;
  #summaries: Map<string, PlaceSummary | SeriesSummary> | undefined;

  constructor(portal: SiteData, filter: FilterLookup) {
    this.#views = portal.views;
    this.#shareCard = filter("shareCard");
  }

  /** The places' and series' keys. */
  valued(): Iterable<string> {
    return this.#byKey().keys();
  }

  /**
   * What a place's or series' pages, and its events' pages, show of it
   * beside its events: its name and links, a series' title and rule, its
   * share card. Undefined for any other scope (calendars and categories
   * count as moved with any of their events).
   */
  value(scope: string): string | undefined {
    const summary = this.#byKey().get(scope);
    if (!summary) return undefined;
    const { upcoming, past, ...fields } = summary;
    const shown =
      "dates" in fields
        ? { ...fields, dates: undefined, next: undefined, place: placeFields(fields.place) }
        : fields;
    return contentHash(JSON.stringify([shown, this.#shareCard(summary.scope)]) ?? "");
  }

  #byKey(): Map<string, PlaceSummary | SeriesSummary> {
    if (!this.#summaries) {
      const summaries = new Map<string, PlaceSummary | SeriesSummary>();
      for (const place of this.#views.places.all)
        summaries.set(scopeRead.place(place.scope.id), place);
      for (const series of this.#views.series.all) {
        summaries.set(scopeRead.series(series.scope.calendarId, series.scope.id), series);
      }
      this.#summaries = summaries;
    }
    return this.#summaries;
  }

  place(event: CalendarEvent): string | null {
    const scope = this.#views.places.of(event)?.scope;
    return scope ? scopeRead.place(scope.id) : null;
  }

  series(event: CalendarEvent): string | null {
    const scope = this.#views.series.of(event)?.scope;
    return scope ? scopeRead.series(scope.calendarId, scope.id) : null;
  }

  /** Its calendars, categories, place and series. */
  scopes(event: CalendarEvent): string[] {
    const scopes = calendarsAndCategories(event);
    for (const scope of [this.place(event), this.series(event)]) if (scope) scopes.push(scope);
    return scopes;
  }

  /**
   * Where the event is, but for its series: what decides which lists,
   * months and pages show it, and where.
   */
  placement(event: CalendarEvent): string {
    return contentHash(
      JSON.stringify([
        calendarsAndCategories(event),
        this.place(event),
        event.start,
        event.end,
        event.allDay,
        event.status,
      ]),
    );
  }
}

/** The scopes of an event's calendars and categories. */
function calendarsAndCategories(event: CalendarEvent): string[] {
  const scopes = calendarIdsOf(event).map(scopeRead.calendar);
  for (const category of event.categories) scopes.push(scopeRead.category(category.id));
  return scopes;
}

/** A place as a series shows it: its own fields, not its lists. */
function placeFields(place: PlaceSummary | null): unknown {
  if (!place) return null;
  const { upcoming, past, ...fields } = place;
  return fields;
}

/** What every page's inputs share (see the module's comment), as one digest. */
function recordContext(
  globals: Data,
  portal: SiteData,
  filter: FilterLookup,
  host: string,
): string {
  const feedLinks = filter("feedLinks");
  return contentHash(
    JSON.stringify([
      siteWideInputs(globals, host) ?? null,
      listingSiteParts(portal, filter),
      portal.calendars.map((calendar) => ({ ...calendar, updatedAt: undefined })),
      portal.calendars.map((calendar) => feedLinks(calendar)),
      filter("shareCard")("/"),
    ]) ?? "",
  );
}

/**
 * The record kept at `file`: its head, and its body read on demand; null
 * when there is none, or it is of another version or damaged (the build then
 * asks every page).
 */
export function readRecord(file: string): { head: RecordHead; body(): RecordBody | null } | null {
  let fd: number | null = null;
  let start: Buffer;
  try {
    fd = openSync(file, "r");
    start = Buffer.alloc(HEAD_BYTES);
    start = start.subarray(0, readSync(fd, start, 0, HEAD_BYTES, 0));
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const end = start.indexOf(0x0a);
  const head = parsed(start.subarray(0, end === -1 ? 0 : end)) as Partial<RecordHead> | null;
  const time = (value: unknown) => typeof value === "number" && Number.isFinite(value);
  const validHead =
    head?.version === PAGE_RECORD_VERSION &&
    typeof head.code === "string" &&
    typeof head.context === "string" &&
    time(head.now) &&
    (head.until === null || time(head.until)) &&
    (head.updatedAt === null || typeof head.updatedAt === "string");
  if (!validHead) return null;
  const body = (): RecordBody | null => {
    let whole: Buffer;
    try {
      whole = readFileSync(file);
    } catch {
      return null;
    }
    // The body of the record whose head was read: one replaced in between begins otherwise.
    if (whole[end] !== 0x0a || !whole.subarray(0, end).equals(start.subarray(0, end))) return null;
    const rest = parsed(whole.subarray(end + 1)) as Partial<RecordBody> | null;
    const texts = (value: unknown) =>
      Array.isArray(value) && value.every((item) => typeof item === "string");
    const textsByKey = (value: unknown) =>
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((item) => typeof item === "string");
    const valid =
      texts(rest?.events) &&
      texts(rest?.scopes) &&
      textsByKey(rest?.values) &&
      textsByKey(rest?.pages);
    return valid ? (rest as RecordBody) : null;
  };
  return { head: head as RecordHead, body };
}

/** The record's head line is well under this: a longer one is not a record. */
const HEAD_BYTES = 4096;

/** JSON's value of `bytes`, or null where they are not JSON. */
function parsed(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
}

/**
 * Written aside, then renamed (replaceFileSync): a reader never sees half a
 * record. Written a few thousand entries at a time rather than as one text
 * (24 MB at 100,000 events). A failure costs the next build the asking,
 * nothing else.
 */
export function writeRecord(
  file: string,
  record: Omit<RecordFile, "pages"> & { readonly pages: ReadonlyMap<string, string> },
): void {
  const { version, code, context, now, until, updatedAt, events, pages, ...rest } = record;
  const head: RecordHead = { version, code, context, now, until, updatedAt };
  try {
    replaceFileSync(file, (append) => {
      const pieces = (texts: Iterable<string>) => {
        let piece: string[] = [];
        for (const text of texts) {
          piece.push(text);
          if (piece.length === 4096) {
            append(piece.join(""));
            piece = [];
          }
        }
        append(piece.join(""));
      };
      append(`${JSON.stringify(head)}\n${JSON.stringify(rest).slice(0, -1)},"events":[`);
      pieces(events.map((line, at) => `${at > 0 ? "," : ""}${JSON.stringify(line)}`));
      append(`],"pages":{`);
      let first = true;
      pieces(
        (function* () {
          for (const [path, entry] of pages) {
            yield `${first ? "" : ","}${JSON.stringify(path)}:${JSON.stringify(entry)}`;
            first = false;
          }
        })(),
      );
      append("}}");
    });
  } catch {
    // Only a cache.
  }
}
