import type { WireRecord } from "./wire.ts";

/**
 * Portals name the same thing differently. Each of our fields has a list of
 * common wire names, tried in order; a site owner can pin the wire name (a dot
 * path for nested fields) through EVENT_API_FIELD_MAP, which then wins.
 */
const CALENDAR_FIELDS = {
  id: ["id", "calendarId", "calendar_id", "eventCalendarId", "uid", "key", "slug"],
  name: ["name", "title", "label", "displayName", "display_name", "summary"],
  description: ["description", "summary", "about", "details"],
  timeZone: ["timeZone", "timezone", "time_zone", "tz", "tzid", "zone"],
  color: ["color", "colour", "colorHex", "backgroundColor"],
  updatedAt: ["updatedAt", "updated_at", "modifiedAt", "modified_at", "lastModified", "updated"],
} as const;

const EVENT_FIELDS = {
  id: ["id", "eventId", "event_id", "uid", "uuid", "key"],
  calendarId: ["calendarId", "calendar_id", "eventCalendarId"],
  title: ["title", "name", "summary", "subject", "headline"],
  summary: ["summary", "teaser", "excerpt", "shortDescription", "short_description", "subtitle"],
  description: [
    "description",
    "descriptionHtml",
    "description_html",
    "body",
    "content",
    "details",
    "text",
  ],
  start: [
    "start",
    "startDate",
    "start_date",
    "startTime",
    "start_time",
    "startsAt",
    "starts_at",
    "dtstart",
    "begin",
    "from",
  ],
  end: [
    "end",
    "endDate",
    "end_date",
    "endTime",
    "end_time",
    "endsAt",
    "ends_at",
    "dtend",
    "until",
    "to",
  ],
  allDay: ["allDay", "all_day", "isAllDay", "is_all_day", "allday", "wholeDay"],
  timeZone: ["timeZone", "timezone", "time_zone", "tz", "tzid", "zone"],
  status: ["status", "state", "eventStatus", "event_status"],
  cancelled: ["cancelled", "canceled", "isCancelled", "isCanceled", "is_cancelled"],
  attendanceMode: ["attendanceMode", "attendance_mode", "eventAttendanceMode", "mode"],
  location: ["location", "venue", "place", "address"],
  // The place's own id when it is not inside the location record (`location.id` is read too).
  placeId: ["placeId", "place_id", "venueId", "venue_id", "locationId", "location_id"],
  onlineUrl: [
    "onlineUrl",
    "online_url",
    "streamUrl",
    "stream_url",
    "meetingUrl",
    "virtualLocation",
    "url_online",
  ],
  image: ["image", "imageUrl", "image_url", "picture", "photo", "thumbnail"],
  categories: ["categories", "category", "tags", "keywords", "topics"],
  organizer: ["organizer", "organiser", "host", "contact"],
  registrationUrl: [
    "registrationUrl",
    "registration_url",
    "ticketUrl",
    "ticket_url",
    "ticketsUrl",
    "bookingUrl",
  ],
  // Read for schema.org's performer and offers (Google's event rich results recommend them).
  performer: ["performer", "performers", "artist", "artists", "speaker", "speakers", "lineup"],
  // What the event offers for access: src/model/access-features.ts reads the list.
  accessibility: [
    "accessibility",
    "accessibilityFeatures",
    "accessibility_features",
    "accessInfo",
    "access_info",
    "accessFeatures",
    "access_features",
  ],
  "offers.price": ["price", "ticketPrice", "ticket_price"],
  "offers.currency": ["currency", "priceCurrency", "price_currency", "currencyCode"],
  "offers.availability": ["availability", "ticketAvailability", "ticket_availability"],
  "offers.validFrom": ["salesStart", "sales_start", "onSaleFrom", "on_sale_from", "validFrom"],
  createdAt: ["createdAt", "created_at", "created", "createdOn"],
  updatedAt: [
    "updatedAt",
    "updated_at",
    "modifiedAt",
    "modified_at",
    "lastModified",
    "updated",
    "modified",
  ],
  revision: ["revision", "sequence", "version", "rev"],
  // The series (recurring event) an event is a date of; an object's `id` is read.
  seriesId: [
    "seriesId",
    "series_id",
    "series",
    "recurringEventId",
    "recurring_event_id",
    "recurrenceGroupId",
    "parentEventId",
  ],
  // The same event in another source of the site, "<source id>:<event id>" (docs/sources.md).
  sameAs: ["sameAs", "same_as", "linkedEventId", "linked_event_id"],
} as const;

export type CalendarField = keyof typeof CALENDAR_FIELDS;
export type EventField = keyof typeof EVENT_FIELDS;

/**
 * The texts a portal may carry in other languages: the field map names the
 * wire field of each language's text as `<field>.<language tag>`
 * (`"title.fr": "title_fr"`), never guessed from the wire names, so a portal
 * without translations reads exactly as before.
 */
export const TRANSLATABLE_FIELDS = ["title", "summary", "description"] as const;
export type TranslatableField = (typeof TRANSLATABLE_FIELDS)[number];
/** A field map key of a translation: "title.fr", "description.pt-BR". */
export type TranslationField = `${TranslatableField}.${string}`;

/** Where each language's texts are on the wire: language tag -> field -> wire path. */
export type FieldTranslations = ReadonlyMap<
  string,
  Readonly<Partial<Record<TranslatableField, string>>>
>;

/**
 * Keys under which portals wrap a single record, tried in order:
 * `{ "data": { ... } }` (JSON:API and many others), `{ "item": ... }`,
 * `{ "event": ... }`... (src/api/details-envelope.ts unwraps details in them).
 */
export const RECORD_ENVELOPE_KEYS = [
  "data",
  "item",
  "event",
  "result",
  "record",
  "details",
  "eventDetails",
  "event_details",
  "payload",
  "entry",
  "resource",
] as const;

/** Our field name -> the portal's wire name (dot path), per record kind. */
export interface FieldMap {
  readonly calendar: Readonly<Partial<Record<CalendarField, string>>>;
  readonly event: Readonly<Partial<Record<EventField | TranslationField, string>>>;
}

export const EMPTY_FIELD_MAP: FieldMap = { calendar: {}, event: {} };

/**
 * Reads `{ "event": { "title": "headline" }, "calendar": { "name": "label" } }`
 * or the flat form `{ "event.title": "headline" }`. Throws a one-line message
 * (without a prefix) for the caller to attribute to its setting.
 */
export function parseFieldMap(value: unknown): FieldMap {
  if (!isPlainObject(value)) throw new Error("expected a JSON object");
  const calendar: Record<string, string> = {};
  const event: Record<string, string> = {};
  const put = (kind: string, field: string, wire: unknown): void => {
    const target = kind === "calendar" ? calendar : kind === "event" ? event : null;
    const known = kind === "calendar" ? CALENDAR_FIELDS : EVENT_FIELDS;
    if (!target) throw new Error(`unknown record kind "${kind}" (expected "calendar" or "event")`);
    const translation = kind === "event" ? translationKey(field) : null;
    if (translation === undefined) {
      throw new Error(
        `${kind}.${field}: "${field.slice(field.indexOf(".") + 1)}" is not a language tag (expected e.g. title.fr, description.pt-BR)`,
      );
    }
    if (translation !== null) {
      if (typeof wire !== "string" || wire.trim() === "") {
        throw new Error(`${kind}.${field} must map to a non-empty string`);
      }
      target[translation] = wire.trim();
      return;
    }
    if (!Object.hasOwn(known, field)) {
      throw new Error(
        `unknown ${kind} field "${field}" (expected one of ${Object.keys(known).join(", ")})`,
      );
    }
    if (typeof wire !== "string" || wire.trim() === "") {
      throw new Error(`${kind}.${field} must map to a non-empty string`);
    }
    target[field] = wire.trim();
  };
  for (const [key, inner] of Object.entries(value)) {
    if (key === "calendar" || key === "event") {
      if (!isPlainObject(inner)) throw new Error(`"${key}" must be an object`);
      for (const [field, wire] of Object.entries(inner)) put(key, field, wire);
    } else {
      const dot = key.indexOf(".");
      if (dot < 0) throw new Error(`key "${key}" must be "calendar", "event" or "<kind>.<field>"`);
      put(key.slice(0, dot), key.slice(dot + 1), inner);
    }
  }
  return { calendar, event };
}

/**
 * A translation's key with its tag canonical ("title.pt-br" -> "title.pt-BR");
 * null for a key that is no translation's, undefined for one whose tag is
 * not a language tag.
 */
function translationKey(field: string): TranslationField | null | undefined {
  const dot = field.indexOf(".");
  const name = field.slice(0, dot);
  if (dot < 0 || !(TRANSLATABLE_FIELDS as readonly string[]).includes(name)) return null;
  try {
    const [tag] = Intl.getCanonicalLocales(field.slice(dot + 1));
    return tag ? `${name as TranslatableField}.${tag}` : undefined;
  } catch {
    return undefined;
  }
}

/** The translations a field map names, by language tag (in the map's order). */
export function fieldTranslations(map: FieldMap): FieldTranslations {
  const byLanguage = new Map<string, Partial<Record<TranslatableField, string>>>();
  for (const [key, path] of Object.entries(map.event)) {
    const dot = key.indexOf(".");
    const field = key.slice(0, dot) as TranslatableField;
    if (dot < 0 || !TRANSLATABLE_FIELDS.includes(field) || !path) continue;
    const tag = key.slice(dot + 1);
    const fields = byLanguage.get(tag) ?? {};
    fields[field] = path;
    byLanguage.set(tag, fields);
  }
  return byLanguage;
}

/** The value at a mapped event path, as `pickEventField` reads a pinned name. */
export function pickEventPath(records: readonly WireRecord[], path: string): unknown {
  return pick(records, path, [], eventPathIn);
}

/** Reads a dot path ("dates.start") from a record; own properties only. */
export function readPath(record: unknown, path: string): unknown {
  // Most names have no dot: read without splitting (every field of every record tries several).
  if (!path.includes(".")) {
    return isPlainObject(record) && Object.hasOwn(record, path) ? record[path] : undefined;
  }
  let current: unknown = record;
  for (const part of path.split(".")) {
    if (!isPlainObject(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/** The first present (non-null, non-empty-string) value among the records, mapped name first. */
export function pickCalendarField(
  records: readonly WireRecord[],
  field: CalendarField,
  map: FieldMap,
): unknown {
  return pick(records, map.calendar[field], CALENDAR_FIELDS[field]);
}

export function pickEventField(
  records: readonly WireRecord[],
  field: EventField,
  map: FieldMap,
): unknown {
  return pick(records, map.event[field], EVENT_FIELDS[field], eventPathIn);
}

function pick(
  records: readonly WireRecord[],
  mapped: string | undefined,
  variants: readonly string[],
  pathIn: (record: WireRecord, path: string) => string = (_, path) => path,
): unknown {
  for (const record of records) {
    for (const name of mapped ? [pathIn(record, mapped)] : variants) {
      const value = readPath(record, name);
      if (value !== undefined && value !== null && value !== "") return value;
    }
  }
  return undefined;
}

/**
 * Where a mapped event path is read in one record. Field maps written when
 * details were read with their envelope reach into it (`data.perex`, a JSON:API
 * `data.attributes.perex`); details are now read inside it, and list records
 * never had one. On a record without a field named like the envelope, such a
 * path can only have meant the envelope, so the rest is read (`perex`). A
 * record that has such a field of its own is read as written: there the path
 * may mean that field, and check-api says which entry to rewrite instead.
 */
export function eventPathIn(record: WireRecord, path: string): string {
  const [head, next, ...rest] = path.split(".");
  if (next === undefined || !isEnvelopeKey(head) || Object.hasOwn(record, head as string))
    return path;
  // A JSON:API resource is read as its id plus its attributes.
  if (next === "attributes" && rest.length > 0 && !Object.hasOwn(record, "attributes"))
    return rest.join(".");
  return [next, ...rest].join(".");
}

function isEnvelopeKey(key: string | undefined): boolean {
  return (RECORD_ENVELOPE_KEYS as readonly (string | undefined)[]).includes(key);
}

/**
 * Top-level wire fields the normalizer did not read (for `npm run check-api`):
 * a hint that the field map may need an entry.
 */
export function unmappedFields(
  record: WireRecord,
  kind: "calendar" | "event",
  map: FieldMap,
): string[] {
  const variants = kind === "calendar" ? CALENDAR_FIELDS : EVENT_FIELDS;
  const mapped = kind === "calendar" ? map.calendar : map.event;
  const used = new Set<string>();
  for (const [field, names] of Object.entries(variants)) {
    const pinned = (mapped as Record<string, string | undefined>)[field];
    const path = pinned && kind === "event" ? eventPathIn(record, pinned) : pinned;
    if (path) used.add(path.split(".")[0] ?? path);
    else for (const name of names) used.add(name);
  }
  if (kind === "event") {
    for (const fields of fieldTranslations(map).values()) {
      for (const pinned of Object.values(fields)) {
        const path = eventPathIn(record, pinned);
        used.add(path.split(".")[0] ?? path);
      }
    }
  }
  return Object.keys(record).filter((key) => !used.has(key));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
