import type { CachedResponse, CacheHit, ResponseCache } from "./response-cache.ts";

/**
 * A details record's version as the client compares it with the list's
 * (PortalClient: its revision and update time, read through the field
 * map); a field the record lacks is left out.
 */
export type DetailsVersion = Readonly<Record<string, unknown>>;

interface StoredDetails {
  /** The response body as JSON text: parsed only when it is read (`get`). */
  readonly body: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** When the portal last sent or confirmed this record (epoch ms). */
  readonly savedAt: number;
  /** The body's digest (src/api/portal-client.ts), once made: none for a new body. */
  readonly digest?: string;
  /** The record's version, once read from the body under this store's field map. */
  readonly version?: DetailsVersion;
}

/** The stored form: a calendar's entries, and the field map their versions were read with. */
interface StoredFile {
  readonly format: typeof FORMAT;
  readonly versionKey: string;
  readonly entries: Record<string, StoredDetails>;
}

const FORMAT = 2;

/**
 * The details records of one calendar's events, kept between builds as one
 * cache entry rather than one per event: a warm build of 10,000 events read
 * 20,000 small cache files to find its details unchanged; now it reads one
 * file per calendar (docs/performance.md). Saving keeps only the events the
 * calendar still lists, so the entry does not grow with deleted events.
 *
 * Each body is kept as its JSON text, with the record's version and the
 * body's digest beside it: a build decides that an event's details are
 * unchanged from the version, and keys its normalized event by the digest,
 * so the body is parsed only for an event normalized again. Parsed, every
 * calendar's bodies were 175 MB of objects at 100,000 events, read each
 * build (docs/performance.md, What changed, item 98).
 */
export class DetailsStore {
  readonly #cache: ResponseCache;
  readonly #key: string;
  readonly #versionKey: string;
  readonly #now: () => number;
  readonly #entries: Map<string, StoredDetails>;
  #changed = false;

  private constructor(
    cache: ResponseCache,
    key: string,
    versionKey: string,
    entries: Map<string, StoredDetails>,
    now: () => number,
  ) {
    this.#cache = cache;
    this.#key = key;
    this.#versionKey = versionKey;
    this.#entries = entries;
    this.#now = now;
  }

  /**
   * `versionKey`: what the versions are read with (the field map): versions
   * kept under another are not used.
   */
  static load(
    cache: ResponseCache,
    key: string,
    versionKey: string,
    now: () => number = Date.now,
  ): DetailsStore {
    const stored = cache.get<unknown>(key)?.value;
    return new DetailsStore(cache, key, versionKey, entriesOf(stored, versionKey), now);
  }

  /** The event's response, its body parsed; null when none is kept. */
  get(eventId: string): CacheHit<CachedResponse> | null {
    const entry = this.#entries.get(eventId);
    if (!entry) return null;
    let body: unknown;
    try {
      body = JSON.parse(entry.body);
    } catch {
      return null;
    }
    const response: CachedResponse = {
      body,
      etag: entry.etag,
      lastModified: entry.lastModified,
      link: null,
      totalCount: null,
    };
    return { value: response, ageMs: Math.max(0, this.#now() - entry.savedAt) };
  }

  /** The body's JSON text, unparsed. */
  text(eventId: string): string | undefined {
    return this.#entries.get(eventId)?.body;
  }

  /**
   * Records a response the portal just sent or confirmed (304): the same
   * body keeps its digest and version.
   */
  set(eventId: string, response: CachedResponse): void {
    const entry = this.#entries.get(eventId);
    const body = JSON.stringify(response.body) ?? "null";
    const { etag, lastModified } = response;
    const savedAt = this.#now();
    this.#entries.set(
      eventId,
      entry?.body === body
        ? { ...entry, etag, lastModified, savedAt }
        : { body, etag, lastModified, savedAt },
    );
    this.#changed = true;
  }

  /** The digest kept with the event's response body, if one was made for it. */
  digest(eventId: string): string | undefined {
    return this.#entries.get(eventId)?.digest;
  }

  /** Keeps `digest` with the event's response body, which it must be the digest of. */
  setDigest(eventId: string, digest: string): void {
    const entry = this.#entries.get(eventId);
    if (!entry || entry.digest === digest) return;
    this.#entries.set(eventId, { ...entry, digest });
    this.#changed = true;
  }

  /** The record's version kept with its body, if one was read from it under this version key. */
  version(eventId: string): DetailsVersion | undefined {
    return this.#entries.get(eventId)?.version;
  }

  /** Keeps the version read from the event's body. */
  setVersion(eventId: string, version: DetailsVersion): void {
    const entry = this.#entries.get(eventId);
    if (!entry || (entry.version && sameFields(entry.version, version))) return;
    this.#entries.set(eventId, { ...entry, version });
    this.#changed = true;
  }

  /** Writes the entry, keeping only `listed` events; skipped when nothing changed. */
  async save(listed: ReadonlySet<string>): Promise<void> {
    for (const id of this.#entries.keys()) {
      if (!listed.has(id)) {
        this.#entries.delete(id);
        this.#changed = true;
      }
    }
    if (!this.#changed) return;
    const file: StoredFile = {
      format: FORMAT,
      versionKey: this.#versionKey,
      entries: Object.fromEntries(this.#entries),
    };
    await this.#cache.set(this.#key, file);
    this.#changed = false;
  }
}

/**
 * The entries of a stored file, checked; versions only where read under
 * `versionKey`. An entry of the form before (the body parsed, in a
 * `response`) is read too, without its version: the first build after an
 * upgrade reads each body once more instead of asking the portal again.
 */
function entriesOf(stored: unknown, versionKey: string): Map<string, StoredDetails> {
  const entries = new Map<string, StoredDetails>();
  if (!isObject(stored)) return entries;
  if (stored.format === FORMAT && isObject(stored.entries)) {
    const versions = stored.versionKey === versionKey;
    for (const [id, value] of Object.entries(stored.entries)) {
      if (!isObject(value) || typeof value.body !== "string" || !savedAt(value.savedAt)) continue;
      entries.set(id, {
        body: value.body,
        etag: text(value.etag),
        lastModified: text(value.lastModified),
        savedAt: value.savedAt,
        ...(typeof value.digest === "string" && { digest: value.digest }),
        ...(versions && isObject(value.version) && { version: value.version }),
      });
    }
    return entries;
  }
  for (const [id, value] of Object.entries(stored)) {
    const response = isObject(value) ? value.response : undefined;
    if (!isObject(value) || !isObject(response) || !savedAt(value.savedAt)) continue;
    const body = JSON.stringify(response.body);
    if (body === undefined) continue;
    entries.set(id, {
      body,
      etag: text(response.etag),
      lastModified: text(response.lastModified),
      savedAt: value.savedAt,
      ...(typeof value.digest === "string" && { digest: value.digest }),
    });
  }
  return entries;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function savedAt(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function sameFields(a: DetailsVersion, b: DetailsVersion): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
