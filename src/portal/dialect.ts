import { readFileSync } from "node:fs";
import type { WireCalendar, WireEvent, WireEventDetails } from "./types.ts";

/**
 * How the portal's records look on the wire. The contract (docs/api.md) is
 * one dialect; others imitate portals built by someone else, so the client's
 * adaptation (auth probing, envelopes, field maps, time and place shapes) is
 * tested over real HTTP and can be reproduced by hand with
 * `npm run portal -- --dialect variant` (docs/api.md, "Dialects").
 */
export interface DialectSpec {
  /**
   * Contract field -> wire name, per record kind: `"event.start": "dateFrom"`.
   * A dot path nests the value: `"event.start": "schedule.begins"`.
   */
  readonly rename?: Readonly<Record<string, string>>;
  /** Contract fields left out: `["event.revision"]`. */
  readonly omit?: readonly string[];
  /** The details record is sent as `{ "<key>": record }`. */
  readonly detailsEnvelope?: string;
  /** Event start and end: with their offset (contract) or as local wall-clock times without one. */
  readonly times?: "offset" | "local";
  /** `createdAt` and `updatedAt`: ISO 8601 (contract), or epoch seconds or milliseconds (numbers). */
  readonly stamps?: "iso" | "epoch-seconds" | "epoch-millis";
  /** `location.geo`: `{ lat, lon }` (contract), `"lat,lon"` or a GeoJSON Point (`[lon, lat]`). */
  readonly geo?: "object" | "lat,lon" | "geojson";
  /** Ids made only of digits (no leading zero) are sent as JSON numbers. */
  readonly numericIds?: boolean;
  /** Categories as a list of names instead of `{ id, name }` objects. */
  readonly categoryNames?: boolean;
}

/**
 * Named dialects. `variant` is a portal whose every convention differs from
 * the contract where real portals commonly do: renamed fields, local times,
 * epoch-second stamps, "lat,lon" coordinates, numeric ids, category names and
 * details wrapped in `{ "data": ... }`. Combine it with `--auth header:X-Api-Key`
 * and `--paging envelope-links` for the whole picture.
 */
export const DIALECT_PRESETS: Readonly<Record<string, DialectSpec>> = {
  contract: {},
  variant: {
    rename: {
      "calendar.name": "title",
      "calendar.timeZone": "timezone",
      "calendar.color": "colour",
      "calendar.updatedAt": "modified",
      "event.title": "name",
      "event.start": "dateFrom",
      "event.end": "dateTo",
      "event.allDay": "wholeDay",
      "event.timeZone": "timezone",
      "event.status": "state",
      "event.updatedAt": "modified",
      "event.createdAt": "created",
      "event.summary": "perex",
      "event.description": "text",
      "event.location": "place",
      "event.onlineUrl": "streamLink",
      "event.image": "mainImage",
      "event.categories": "labels",
      "event.organizer": "organiser",
      "event.registrationUrl": "ticketLink",
    },
    detailsEnvelope: "data",
    times: "local",
    stamps: "epoch-seconds",
    geo: "lat,lon",
    numericIds: true,
    categoryNames: true,
  },
};

const CALENDAR_KEYS: ReadonlySet<string> = new Set([
  "id",
  "name",
  "description",
  "timeZone",
  "color",
  "eventCount",
  "updatedAt",
]);
const EVENT_KEYS: ReadonlySet<string> = new Set([
  "id",
  "calendarId",
  "title",
  "start",
  "end",
  "allDay",
  "timeZone",
  "status",
  "revision",
  "updatedAt",
  "summary",
  "description",
  "location",
  "onlineUrl",
  "attendanceMode",
  "image",
  "categories",
  "organizer",
  "registrationUrl",
  "createdAt",
  "accessibility",
]);
const WIRE_PATH = /^[A-Za-z_$@][\w$@-]*(\.[A-Za-z_$@][\w$@-]*)*$/;

type Json = Record<string, unknown>;

/** Record transforms of one dialect, applied to the contract records the store derives. */
export interface Dialect {
  readonly name: string;
  calendar(record: WireCalendar): unknown;
  event(record: WireEvent): unknown;
  details(record: WireEventDetails): unknown;
}

/**
 * A dialect from a preset name, a JSON file holding a DialectSpec, or a spec
 * object. Throws a RangeError naming what is wrong.
 */
export function resolveDialect(value: string | DialectSpec | undefined): Dialect {
  if (value === undefined) return createDialect("contract", {});
  if (typeof value !== "string") return createDialect("custom", value);
  const preset = DIALECT_PRESETS[value];
  if (preset) return createDialect(value, preset);
  if (!value.endsWith(".json")) {
    throw new RangeError(
      `dialect must be ${Object.keys(DIALECT_PRESETS).join(", ")} or a .json file, got "${value}"`,
    );
  }
  let spec: unknown;
  try {
    spec = JSON.parse(readFileSync(value, "utf8"));
  } catch (error) {
    throw new RangeError(`dialect file ${value}: ${(error as Error).message}`);
  }
  return createDialect(value, spec as DialectSpec);
}

function createDialect(name: string, spec: DialectSpec): Dialect {
  const renames = checkSpec(spec);
  const omitted = new Set(spec.omit ?? []);
  const shape = (kind: "calendar" | "event", record: Json): Json => {
    const out: Json = {};
    for (const [field, value] of Object.entries(record)) {
      const key = `${kind}.${field}`;
      if (omitted.has(key)) continue;
      setPath(out, renames.get(key) ?? field, value);
    }
    return out;
  };
  const ids = (record: Json, fields: readonly string[]): void => {
    if (!spec.numericIds) return;
    for (const field of fields) {
      const value = record[field];
      if (typeof value === "string" && /^[1-9]\d{0,14}$/.test(value)) record[field] = Number(value);
    }
  };
  const stamp = (iso: string): unknown => {
    if (!spec.stamps || spec.stamps === "iso") return iso;
    const ms = Date.parse(iso);
    return spec.stamps === "epoch-millis" ? ms : Math.floor(ms / 1000);
  };
  const eventFields = (record: WireEvent): Json => {
    const out: Json = { ...record, updatedAt: stamp(record.updatedAt) };
    if (spec.times === "local") {
      out.start = localTime(record.start);
      out.end = localTime(record.end);
    }
    ids(out, ["id", "calendarId"]);
    return out;
  };
  return {
    name,
    calendar(record) {
      const out: Json = { ...record, updatedAt: stamp(record.updatedAt) };
      ids(out, ["id"]);
      return shape("calendar", out);
    },
    event(record) {
      return shape("event", eventFields(record));
    },
    details(record) {
      const out = eventFields(record);
      out.createdAt = stamp(record.createdAt);
      if (record.location?.geo && spec.geo && spec.geo !== "object") {
        const { lat, lon } = record.location.geo;
        const geo =
          spec.geo === "geojson" ? { type: "Point", coordinates: [lon, lat] } : `${lat},${lon}`;
        out.location = { ...record.location, geo };
      }
      if (spec.categoryNames) out.categories = record.categories.map((category) => category.name);
      const shaped = shape("event", out);
      return spec.detailsEnvelope ? { [spec.detailsEnvelope]: shaped } : shaped;
    },
  };
}

/** "2026-03-28T10:00:00+01:00" -> "2026-03-28T10:00:00"; dates (all-day) stay as they are. */
function localTime(value: string): string {
  return value.replace(/(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})$/, "$1");
}

function checkSpec(spec: DialectSpec): Map<string, string> {
  const known = (key: string): boolean => {
    const [kind, field, ...rest] = key.split(".");
    if (rest.length > 0 || !field) return false;
    return kind === "calendar"
      ? CALENDAR_KEYS.has(field)
      : kind === "event" && EVENT_KEYS.has(field);
  };
  const renames = new Map<string, string>();
  for (const [key, wire] of Object.entries(spec.rename ?? {})) {
    if (!known(key)) throw new RangeError(`dialect rename: unknown field "${key}"`);
    if (typeof wire !== "string" || !WIRE_PATH.test(wire)) {
      throw new RangeError(`dialect rename: "${key}" must map to a field name or dot path`);
    }
    renames.set(key, wire);
  }
  for (const key of spec.omit ?? []) {
    if (!known(key)) throw new RangeError(`dialect omit: unknown field "${key}"`);
  }
  const oneOf = (name: string, value: unknown, allowed: readonly string[]) => {
    if (value !== undefined && !allowed.includes(value as string)) {
      throw new RangeError(`dialect ${name} must be one of ${allowed.join(", ")}`);
    }
  };
  oneOf("times", spec.times, ["offset", "local"]);
  oneOf("stamps", spec.stamps, ["iso", "epoch-seconds", "epoch-millis"]);
  oneOf("geo", spec.geo, ["object", "lat,lon", "geojson"]);
  if (spec.detailsEnvelope !== undefined && !/^[A-Za-z_][\w-]{0,63}$/.test(spec.detailsEnvelope)) {
    throw new RangeError("dialect detailsEnvelope must be a field name");
  }
  return renames;
}

function setPath(target: Json, path: string, value: unknown): void {
  const parts = path.split(".");
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof current[part] !== "object" || current[part] === null) current[part] = {};
    current = current[part] as Json;
  }
  current[parts[parts.length - 1] as string] = value;
}
