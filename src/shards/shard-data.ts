import { createHash } from "node:crypto";
import type { SiteData } from "../site/load.ts";

/**
 * The site's data as a shard rendered it, in what every shard of a split
 * build must agree on: the calendars, the events as published (changes
 * applied), the images copied into the site, and the removed events still
 * published as cancelled. Shards built from different data (the portal
 * changed between their fetches, or they started from different published
 * states) would merge into a site of two moments; `npm run merge-shards`
 * refuses them, naming the part that differs and its first differing id.
 * So each part is kept item by item, [id, digest], in the data's order:
 * about 50 bytes an event in the shard's record.
 */

/** One item of a part: its id and a digest of it as published. */
export type DataItem = readonly [id: string, digest: string];

/** In the order they are compared: an edited event also changes its calendar, and names more. */
export const DATA_PARTS = ["events", "images", "removed", "calendars"] as const;
export type DataPart = (typeof DATA_PARTS)[number];

export interface ShardData extends Readonly<Record<DataPart, readonly DataItem[]>> {
  /** A digest of every part: shards with the same rendered the same data. */
  readonly digest: string;
}

export function shardData(
  data: Pick<SiteData, "calendars" | "events" | "media" | "removed">,
): ShardData {
  const parts: Record<DataPart, readonly DataItem[]> = {
    calendars: data.calendars.map((calendar) => [calendar.id, digestOf(calendar)]),
    events: data.events.map((event) => [`${event.calendarId}/${event.id}`, digestOf(event)]),
    // Named by their bytes (src/site/media.ts): the path says it all. Where it is
    // cached is each machine's own.
    images: data.media.map((file) => [file.path, file.path]),
    removed: data.removed.map((event) => [`${event.calendarId}/${event.id}`, digestOf(event)]),
  };
  const whole = createHash("sha256");
  for (const part of DATA_PARTS) {
    whole.update(`\n${part}`);
    for (const [id, digest] of parts[part]) whole.update(`\n${id}\u0000${digest}`);
  }
  return { digest: whole.digest("base64url").slice(0, 22), ...parts };
}

/** Where two shards' data first differ: the part, the item's id, and which of them has it. */
export interface DataDifference {
  readonly part: DataPart;
  readonly id: string;
  /** "both": another version in each; "one"/"other": only in the first or the second. */
  readonly in: "both" | "one" | "other";
}

/** The first item, part by part in order, where `one` and `other` differ; null when they do not. */
export function firstDataDifference(one: ShardData, other: ShardData): DataDifference | null {
  if (one.digest === other.digest) return null;
  for (const part of DATA_PARTS) {
    const a = one[part];
    const b = other[part];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const [idA, digestA] = a[i] ?? [];
      const [idB, digestB] = b[i] ?? [];
      if (idA === idB && digestA === digestB) continue;
      if (idA !== undefined && idA === idB) return { part, id: idA, in: "both" };
      // Another id at this place: the one the other shard lacks, else the two in another order.
      if (idA !== undefined && !b.some(([id]) => id === idA)) return { part, id: idA, in: "one" };
      if (idB !== undefined && !a.some(([id]) => id === idB)) return { part, id: idB, in: "other" };
      return { part, id: idA ?? idB ?? "", in: "both" };
    }
  }
  return null;
}

function digestOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 22);
}
