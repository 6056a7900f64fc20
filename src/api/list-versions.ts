import { createHash } from "node:crypto";
import type { ApiConfig } from "../config/api.ts";
import { isPlainObject, pickCalendarField, pickEventField } from "../model/field-map.ts";
import type { WireRecord } from "../model/wire.ts";
import { calendarIdOf, eventIdOf } from "./portal-client.ts";

/**
 * What a list record says about the version of the thing it lists, reduced to
 * a short hash. Both the build (recording what it published) and the rebuild
 * check (reading the portal again) call these, so they cannot disagree.
 *
 * Events: the portal's `revision` and `updatedAt` (through the field map), the
 * same fields the fetch compares to reuse stored details. A list without
 * either falls back to the whole record, which still catches every change the
 * list shows (docs/deploy.md says what such a portal misses).
 *
 * Calendars: the fields the site publishes (name, description, zone, colour),
 * not `updatedAt`, which many portals raise on every event change and which
 * the event lists already cover.
 */

export type Pair = readonly [id: string, version: string];

const CALENDAR_FIELDS = ["name", "description", "timeZone", "color"] as const;

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 12);
}

function eventVersion(record: WireRecord, config: Pick<ApiConfig, "fieldMap">): string {
  const revision = pickEventField([record], "revision", config.fieldMap);
  const updatedAt = pickEventField([record], "updatedAt", config.fieldMap);
  if (revision === undefined && updatedAt === undefined) return shortHash(canonicalJson(record));
  return shortHash(JSON.stringify([revision ?? null, updatedAt ?? null]));
}

function calendarVersion(record: WireRecord, config: Pick<ApiConfig, "fieldMap">): string {
  return shortHash(
    JSON.stringify(
      CALENDAR_FIELDS.map((field) => pickCalendarField([record], field, config.fieldMap) ?? null),
    ),
  );
}

/** [id, version] of every listed event with a usable id, in list order. */
export function eventPairs(items: readonly unknown[], config: ApiConfig): Pair[] {
  const pairs: Pair[] = [];
  for (const item of items) {
    if (!isPlainObject(item)) continue;
    const id = eventIdOf(item, config);
    if (id !== null) pairs.push([id, eventVersion(item, config)]);
  }
  return pairs;
}

/** id -> version of the listed calendars that the site publishes (EVENT_API_CALENDARS). */
export function calendarVersions(
  items: readonly unknown[],
  config: ApiConfig,
): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const item of items) {
    if (!isPlainObject(item)) continue;
    const id = calendarIdOf(item, config);
    if (id === null || id in versions) continue;
    if (config.calendars && !config.calendars.includes(id)) continue;
    versions[id] = calendarVersion(item, config);
  }
  return versions;
}

/** One hash of a calendar's listed events, independent of their order. */
export function listFingerprint(pairs: readonly Pair[]): string {
  const lines = [...new Map(pairs.map(([id, v]) => [id, v])).entries()]
    .map(([id, v]) => `${JSON.stringify(id)}\t${v}`)
    .sort();
  return `sha256-${createHash("sha256").update(lines.join("\n")).digest("hex")}`;
}

/** JSON with object keys sorted, so equal records give equal text whatever the key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isPlainObject(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, inner[key]]),
        )
      : inner,
  );
}
