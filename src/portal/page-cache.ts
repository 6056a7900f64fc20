import { entityTag } from "./conditional.ts";

export interface CachedBody {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
}

/**
 * Serialized list pages with their ETag, least recently used first out.
 * Keys include the store version, so an edit makes every cached page stale
 * at once. Without it a 304 would still cost serializing and hashing the page.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedBody>();

  constructor(private readonly capacity = 512) {}

  get(key: string, build: () => { value: unknown; headers: Record<string, string> }): CachedBody {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const { value, headers } = build();
    const body = Buffer.from(JSON.stringify(value));
    const entry = { body, etag: entityTag(body), headers };
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return entry;
  }
}
