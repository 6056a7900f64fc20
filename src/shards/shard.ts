import { UsageError } from "../errors.ts";
import type { CalendarEvent } from "../model/types.ts";

/**
 * One share of a build split over machines (`npm run build -- --shard I/N`,
 * docs/performance.md "A build over several machines"). The per-event work
 * (an event's page, `.ics`, embed card, oEmbed answer and share cards) and
 * the search index's parts are divided by a stable hash of their key; shard
 * 1 also renders everything site-wide (lists, calendars, feeds, public JSON,
 * assets, places, series), and with three shards or more only that. Every
 * shard reads the same snapshot and renders its share exactly as a single
 * build would, so the shards' outputs are disjoint and together are the
 * single build's output, byte for byte (`npm run merge-shards`).
 */
export interface Shard {
  /** 1 to `count`. */
  readonly index: number;
  readonly count: number;
}

/** A build that is not split: it does everything. */
export const WHOLE_BUILD: Shard = Object.freeze({ index: 1, count: 1 });

/** What one shard owns: a key names a per-event or per-part output; null, a site-wide one. */
export type ShardKey = string | null;

/** Parses `--shard I/N`; a clear error for anything else. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard: expected I/N with 1 <= I <= N (e.g. 2/4), got "${text}"`);
  }
  return Object.freeze({ index, count });
}

/**
 * Whether this shard renders the output of `key` (null: site-wide, shard
 * 1's). With three shards or more, shard 1 renders the site-wide outputs
 * only and the others share the per-event ones: the site-wide outputs are
 * about as much work as all the per-event ones at 10,000 events
 * (docs/performance.md, "A build over several machines"), so shard 1
 * taking a share of both would be the slowest.
 */
export function owns(shard: Shard, key: ShardKey): boolean {
  if (shard.count === 1) return true;
  if (key === null) return shard.index === 1;
  const eventShards = shard.count >= 3 ? shard.count - 1 : shard.count;
  const first = shard.count - eventShards + 1;
  return fnv1a(key) % eventShards === shard.index - first;
}

/** The key of everything one event publishes: its page, `.ics`, embed card, share cards. */
export function eventShardKey(event: Pick<CalendarEvent, "calendarId" | "id">): string {
  return `event ${event.calendarId}\u0000${event.id}`;
}

/** The key of one part of the search index (src/search/search-parts.ts). */
export function searchPartShardKey(partKey: string): string {
  return `search part ${partKey}`;
}

export function describeShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * FNV-1a, 32 bits, over the key's UTF-16 code units: stable across
 * machines, Node versions and runs (unlike anything seeded), cheap for
 * 100,000 keys, and spread evenly enough over a handful of shards.
 */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
