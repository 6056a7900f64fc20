import type { CachedResponse, CacheHit, ResponseCache } from "./response-cache.ts";

interface StoredDetails {
  readonly response: CachedResponse;
  /** When the portal last sent or confirmed this record (epoch ms). */
  readonly savedAt: number;
  /** The response body's digest (src/api/details-digest.ts), once made: none for a new body. */
  readonly digest?: string;
}

/**
 * The details records of one calendar's events, kept between builds as one
 * cache entry rather than one per event: a warm build of 10,000 events read
 * 20,000 small cache files to find its details unchanged; now it reads one
 * file per calendar (docs/performance.md). Saving keeps only the events the
 * calendar still lists, so the entry does not grow with deleted events.
 */
export class DetailsStore {
  readonly #cache: ResponseCache;
  readonly #key: string;
  readonly #now: () => number;
  readonly #entries: Map<string, StoredDetails>;
  #changed = false;

  private constructor(
    cache: ResponseCache,
    key: string,
    entries: Map<string, StoredDetails>,
    now: () => number,
  ) {
    this.#cache = cache;
    this.#key = key;
    this.#entries = entries;
    this.#now = now;
  }

  static load(cache: ResponseCache, key: string, now: () => number = Date.now): DetailsStore {
    const stored = cache.get<Record<string, StoredDetails>>(key)?.value;
    const entries = new Map(stored && typeof stored === "object" ? Object.entries(stored) : []);
    return new DetailsStore(cache, key, entries, now);
  }

  get(eventId: string): CacheHit<CachedResponse> | null {
    const entry = this.#entries.get(eventId);
    if (!entry?.response) return null;
    return { value: entry.response, ageMs: Math.max(0, this.#now() - entry.savedAt) };
  }

  /** Records a response the portal just sent or confirmed (304): a confirmed body keeps its digest. */
  set(eventId: string, response: CachedResponse): void {
    const digest =
      this.#entries.get(eventId)?.response === response ? this.digest(eventId) : undefined;
    this.#entries.set(eventId, { response, savedAt: this.#now(), ...(digest && { digest }) });
    this.#changed = true;
  }

  /** The digest kept with the event's response body, if one was made for it. */
  digest(eventId: string): string | undefined {
    const digest = this.#entries.get(eventId)?.digest;
    return typeof digest === "string" ? digest : undefined;
  }

  /** Keeps `digest` with the event's response body, which it must be the digest of. */
  setDigest(eventId: string, digest: string): void {
    const entry = this.#entries.get(eventId);
    if (!entry || entry.digest === digest) return;
    this.#entries.set(eventId, { ...entry, digest });
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
    await this.#cache.set(this.#key, Object.fromEntries(this.#entries));
    this.#changed = false;
  }
}
