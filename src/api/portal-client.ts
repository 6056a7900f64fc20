import type { ApiConfig } from "../config/api.ts";
import { ApiError } from "../errors.ts";
import { isPlainObject, pickCalendarField, pickEventField } from "../model/field-map.ts";
import type { WireCalendar, WireEvent, WireRecord } from "../model/wire.ts";
import { contentHash } from "../short-hash.ts";
import { rememberDetailsDigest } from "./details-digest.ts";
import { unwrapDetails } from "./details-envelope.ts";
import { DetailsStore } from "./details-store.ts";
import { ApiNotFoundError } from "./errors.ts";
import { HttpClient, type HttpStats } from "./http-client.ts";
import { walkListPages } from "./list-pages.ts";
import { type CachedResponse, type CacheHit, ResponseCache } from "./response-cache.ts";

export interface FetchStats extends HttpStats {
  /** Responses taken from the cache without asking (younger than EVENT_API_CACHE_DURATION). */
  cacheHits: number;
  /** Details not requested because the list showed the event unchanged. */
  detailsReused: number;
  /** Details bodies written out and hashed for their digest: those the store kept none for. */
  detailsDigested: number;
  /** List pages read (calendar list and event lists), from the portal or the cache. */
  pages: number;
  /** Requests sent for list pages and for details (304s included). */
  listRequests: number;
  detailRequests: number;
}

/** One page of a list, as the portal sent it (or as the cache confirmed it). */
export interface ListPage {
  /** The list's first-page URL and this page's URL, token removed. */
  readonly list: string;
  readonly url: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly items: readonly unknown[];
}

export type FetchPhase = "calendars" | "events" | "details";

export interface FetchProgress {
  readonly phase: FetchPhase;
  readonly done: number;
  readonly total: number;
}

export interface PortalClientOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: FetchProgress) => void;
  readonly onWarning?: (warning: string) => void;
  /** Every list page as read: what the rebuild check compares with (src/rebuild). */
  readonly onListPage?: (page: ListPage) => void;
  /** The calendars fetchAll reads events of, before it asks for any. */
  readonly onCalendars?: (records: readonly WireRecord[]) => void;
  /** Each event as soon as its details are in, while the rest are still being fetched. */
  readonly onEvent?: (calendarId: string, event: WireEvent) => void;
  /** Injected for tests of the backoff. */
  readonly random?: () => number;
  /** Where the names of the response-cache files it reads or writes go (pruneResponseCache). */
  readonly cacheUsed?: Set<string>;
}

/**
 * The three operations of the service (docs/api.md) over the HTTP client,
 * with paging, the persistent response cache and conditional requests.
 */
export class PortalClient {
  readonly http: HttpClient;
  readonly stats: FetchStats;
  readonly #config: ApiConfig;
  readonly #cache: ResponseCache;
  readonly #options: PortalClientOptions;
  /** One details store per calendar, loaded on first use. */
  readonly #details = new Map<string, DetailsStore>();

  constructor(config: ApiConfig, options: PortalClientOptions = {}) {
    this.#config = config;
    this.#options = options;
    this.http = new HttpClient({ ...config, signal: options.signal, random: options.random });
    this.stats = Object.assign(this.http.stats, {
      cacheHits: 0,
      detailsReused: 0,
      detailsDigested: 0,
      pages: 0,
      listRequests: 0,
      detailRequests: 0,
    });
    this.#cache = new ResponseCache(config.cacheDir, this.http.redact, {
      used: options.cacheUsed,
    });
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  endpoint(...segments: string[]): URL {
    const path = segments.map((segment) => encodeURIComponent(segment)).join("/");
    return new URL(`${this.#config.baseUrl}/${path}`);
  }

  async listCalendars(): Promise<WireRecord[]> {
    const records: WireRecord[] = [];
    await this.#list(this.endpoint("event-calendars"), (items, offset) => {
      records.push(...this.#records(items, "the calendar list", offset));
    });
    return records;
  }

  /** A calendar's events; `onPage` sees each page's records as soon as it arrives. */
  async listEvents(
    calendarId: string,
    onPage?: (records: WireRecord[]) => void,
  ): Promise<WireRecord[]> {
    const where = `calendar "${calendarId}"`;
    try {
      const records: WireRecord[] = [];
      await this.#list(this.endpoint("event-calendar", calendarId, "events"), (items, offset) => {
        const page = this.#records(items, where, offset);
        records.push(...page);
        onPage?.(page);
      });
      return records;
    } catch (error) {
      if (error instanceof ApiNotFoundError) {
        throw new ApiError(
          `Calendar "${calendarId}" is not available to this organization (HTTP 404 for its events); check EVENT_API_CALENDARS and the token's organization.`,
          404,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /**
   * Details of one event, or null when the portal answers 404 (the event went
   * away between the list and the details). Not requested at all when the
   * cached details carry the same revision/updatedAt as the list record.
   */
  async getDetails(
    calendarId: string,
    eventId: string,
    listed?: WireRecord,
  ): Promise<WireRecord | null> {
    const store = this.#detailsStore(calendarId);
    const cached = store.get(eventId);
    const stored = isPlainObject(cached?.value.body) ? this.#unwrap(cached.value.body) : null;
    if (stored && listed && cached && this.#sameVersion(listed, stored)) {
      this.stats.detailsReused++;
      return this.#withDigest(store, eventId, cached.value.body, stored);
    }
    // Made for a request only, not for each event whose details are reused.
    const url = this.endpoint("event-calendar", calendarId, "event", eventId, "details");
    try {
      const body = await this.#get("detail", url, cached, (entry) => store.set(eventId, entry));
      if (!isPlainObject(body.body)) {
        throw new ApiError(`The portal sent no JSON object for ${this.http.display(url)}.`);
      }
      return this.#withDigest(store, eventId, body.body, this.#unwrap(body.body));
    } catch (error) {
      if (error instanceof ApiNotFoundError) return null;
      throw error;
    }
  }

  /**
   * Keeps the details fetched or confirmed for each calendar, for the next
   * build, dropping events the calendar no longer lists.
   */
  async saveDetails(listed: ReadonlyMap<string, ReadonlySet<string>>): Promise<void> {
    for (const [calendarId, eventIds] of listed) {
      await this.#detailsStore(calendarId).save(eventIds);
    }
  }

  #detailsStore(calendarId: string): DetailsStore {
    let store = this.#details.get(calendarId);
    if (!store) {
      const list = this.endpoint("event-calendar", calendarId, "events");
      store = DetailsStore.load(this.#cache, `details ${this.http.display(list)}`);
      this.#details.set(calendarId, store);
    }
    return store;
  }

  /**
   * Calendars (filtered by EVENT_API_CALENDARS), their events and every
   * event's details. Details are asked for as soon as each list page
   * arrives, so the requests in flight stay at the concurrency limit while
   * lists are still being paged (the fetch floor in docs/performance.md).
   */
  async fetchAll(): Promise<WireCalendar[]> {
    const progress = this.#options.onProgress;
    progress?.({ phase: "calendars", done: 0, total: 1 });
    const calendars = this.#selectCalendars(await this.listCalendars());
    progress?.({ phase: "calendars", done: 1, total: 1 });
    this.#options.onCalendars?.(calendars);

    let eventsDone = 0;
    let detailsDone = 0;
    let detailsTotal = 0;
    // A list that repeats an event (paging while the portal changes) costs one request.
    const pending = new Map<string, Promise<WireRecord | null>>();
    const details = (calendarId: string, eventId: string, event: WireRecord) => {
      const key = `${calendarId}\u0000${eventId}`;
      let request = pending.get(key);
      if (!request) {
        request = this.getDetails(calendarId, eventId, event);
        pending.set(key, request);
      }
      return request;
    };
    const withDetails = async (id: string, event: WireRecord): Promise<WireEvent | null> => {
      const eventId = eventIdOf(event, this.#config);
      const record = eventId === null ? null : await details(id, eventId, event);
      progress?.({ phase: "details", done: ++detailsDone, total: detailsTotal });
      if (eventId !== null && record === null) {
        this.#warn(
          `calendar "${id}", event "${eventId}": skipped (listed, but its details answer 404)`,
        );
        return null;
      }
      const wire = { listed: event, details: record };
      this.#options.onEvent?.(id, wire);
      return wire;
    };

    const listedIds = new Map<string, Set<string>>();
    const result = await Promise.all(
      calendars.map(async (record): Promise<WireCalendar> => {
        const id = calendarIdOf(record, this.#config);
        if (id === null) {
          progress?.({ phase: "events", done: ++eventsDone, total: calendars.length });
          return { record, events: [] };
        }
        const ids = listedIds.get(id) ?? new Set<string>();
        listedIds.set(id, ids);
        const wire: Promise<WireEvent | null>[] = [];
        await this.listEvents(id, (page) => {
          detailsTotal += page.length;
          for (const event of page) {
            const eventId = eventIdOf(event, this.#config);
            if (eventId !== null) ids.add(eventId);
            const request = withDetails(id, event);
            // Awaited below; if the list fails first, the build stops with that error instead.
            request.catch(() => {});
            wire.push(request);
          }
        });
        progress?.({ phase: "events", done: ++eventsDone, total: calendars.length });
        const events = await Promise.all(wire);
        return { record, events: events.filter((event): event is WireEvent => event !== null) };
      }),
    );
    await this.saveDetails(listedIds);
    return result;
  }

  #selectCalendars(calendars: WireRecord[]): WireRecord[] {
    const wanted = this.#config.calendars;
    if (!wanted) return calendars;
    const byId = new Map(calendars.map((record) => [calendarIdOf(record, this.#config), record]));
    const missing = wanted.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      const available = [...byId.keys()].filter(Boolean).join(", ") || "none";
      throw new ApiError(
        `Calendar ${missing.map((id) => `"${id}"`).join(", ")} (EVENT_API_CALENDARS) is not available to this organization; available: ${available}.`,
        404,
      );
    }
    return wanted.map((id) => byId.get(id) as WireRecord);
  }

  /**
   * `record`, unwrapped from `body`, with the body's digest told to the
   * normalized events' keys (src/api/details-digest.ts): the digest kept in
   * the store, else made once and kept, but for a body that holds the token,
   * which the store keeps without it.
   */
  #withDigest(store: DetailsStore, eventId: string, body: unknown, record: WireRecord): WireRecord {
    let digest = store.digest(eventId);
    if (digest === undefined) {
      const text = JSON.stringify(body);
      digest = contentHash(text);
      this.stats.detailsDigested++;
      if (this.http.redact(text) === text) store.setDigest(eventId, digest);
    }
    rememberDetailsDigest(record, digest);
    return record;
  }

  /** Details wrapped in `{ "data": { ... } }` and the like are read like list envelopes. */
  #unwrap(body: WireRecord): WireRecord {
    return unwrapDetails(body, this.#config.fieldMap).record;
  }

  #sameVersion(listed: WireRecord, details: WireRecord): boolean {
    const map = this.#config.fieldMap;
    let compared = false;
    for (const field of ["revision", "updatedAt"] as const) {
      const a = pickEventField([listed], field, map);
      const b = pickEventField([details], field, map);
      if (a === undefined || b === undefined) continue;
      // Mostly the same text: compared as it is before it is written out.
      if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return false;
      compared = true;
    }
    return compared;
  }

  /** Walks a list's pages; `onPage` gets each page's items and the number of items before them. */
  async #list(
    url: URL,
    onPage: (items: readonly unknown[], offset: number) => void,
  ): Promise<void> {
    await walkListPages<CachedResponse>({
      list: url,
      paging: this.#config.paging,
      pageSize: this.#config.pageSize,
      display: (page) => this.http.display(page),
      fetchPage: async (page) => {
        const key = this.#key(page);
        const cached = this.#cache.get<CachedResponse>(key);
        const response = await this.#get("list", page, cached, (entry) =>
          this.#cache.set(key, entry),
        );
        this.stats.pages++;
        return { kind: "body", response };
      },
      onPage: (page) => {
        if (page.notModified) return;
        onPage(page.items, page.offset);
        this.#options.onListPage?.({
          list: this.http.display(url),
          url: this.http.display(page.url),
          etag: page.response.etag,
          lastModified: page.response.lastModified,
          items: page.items,
        });
      },
    });
  }

  /** A response from the cache when fresh enough, else from the portal (conditionally). */
  async #get(
    kind: "list" | "detail",
    url: URL,
    hit: CacheHit<CachedResponse> | null,
    persist: (entry: CachedResponse) => unknown,
  ): Promise<CachedResponse> {
    const cached = hit?.value ?? null;
    if (hit && hit.ageMs < this.#config.cacheDurationMs) {
      this.stats.cacheHits++;
      return hit.value;
    }
    if (kind === "list") this.stats.listRequests++;
    else this.stats.detailRequests++;
    const response = await this.http.getJson(url, cached ?? {});
    if (response.status === 304 && cached) {
      // Re-saving restarts the cache age: the portal just confirmed this body.
      // The age only counts with a cache duration; at 0s (the default) the
      // entry is left as it is rather than written again unchanged.
      if (this.#config.cacheDurationMs > 0) await persist(cached);
      return cached;
    }
    if (response.status === 304) {
      throw new ApiError(
        `The portal answered 304 for ${this.http.display(url)} without being asked.`,
      );
    }
    const entry: CachedResponse = {
      body: response.body,
      etag: response.etag,
      lastModified: response.lastModified,
      link: response.link,
      totalCount: response.totalCount,
    };
    // Stored even without validators: unchanged details are reused by revision.
    await persist(entry);
    return entry;
  }

  #key(url: URL): string {
    return `GET ${this.http.display(url)}`;
  }

  #records(items: readonly unknown[], where: string, offset: number): WireRecord[] {
    const records: WireRecord[] = [];
    items.forEach((item, index) => {
      if (isPlainObject(item)) records.push(item);
      else this.#warn(`${where}: item #${offset + index + 1} is not a JSON object; skipped`);
    });
    return records;
  }

  #warn(message: string): void {
    this.#options.onWarning?.(message);
  }
}

export function calendarIdOf(record: WireRecord, config: ApiConfig): string | null {
  return idOf(pickCalendarField([record], "id", config.fieldMap));
}

export function eventIdOf(record: WireRecord, config: ApiConfig): string | null {
  return idOf(pickEventField([record], "id", config.fieldMap));
}

/**
 * An id as the portal's addresses take it; none for one that no URL can
 * encode (a lone surrogate: encodeURIComponent throws), whose record the
 * normalizer skips by name (src/model/normalize-calendar.ts, readId).
 */
function idOf(raw: unknown): string | null {
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return String(raw);
  return typeof raw === "string" && raw.trim() !== "" && raw.isWellFormed() ? raw.trim() : null;
}
