import { DateTime } from "luxon";
import { readAccessFeatures } from "./access-features.ts";
import { cutText } from "./cut-text.ts";
import { isValidZone, parseInstant, readBoolean, resolveEventTimes } from "./dates.ts";
import {
  type EventField,
  type FieldMap,
  fieldTranslations,
  isPlainObject,
  pickEventField,
  pickEventPath,
} from "./field-map.ts";
import { count, excerpt, FieldReader } from "./field-reader.ts";
import { readGeo, readPlaceGeo } from "./geo.ts";
import { idProblem, type Normalized, type NormalizeOptions, readId } from "./normalize-calendar.ts";
import { readOffer, readPerformers } from "./normalize-offer.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { htmlToText, plainTextLine } from "./sanitize.ts";
import type {
  AttendanceMode,
  Calendar,
  CalendarEvent,
  Category,
  EventImage,
  EventStatus,
  EventTexts,
  Organizer,
  Place,
  PostalAddress,
} from "./types.ts";
import type { WireRecord } from "./wire.ts";

/**
 * One event from its list record and (when fetched) its details record; the
 * details win where both have a field. The zone comes from the event, else its
 * calendar (which already fell back to the site default).
 *
 * Every text is read as the model holds it and within the record's limits
 * (src/model/field-reader.ts, src/model/record-limits.ts): whatever the
 * records hold, the event is published whole, published cut (each cut a
 * note), or skipped with the reason; reading never throws.
 */
export function normalizeEvent(
  listed: WireRecord,
  details: WireRecord | null,
  // Only these two: what an event takes from its calendar (normalize-memo.ts keys on them).
  calendar: Pick<Calendar, "id" | "timeZone">,
  options: NormalizeOptions,
): Normalized<CalendarEvent> {
  const records = details ? [details, listed] : [listed];
  const pick = (field: EventField) => pickEventField(records, field, options.fieldMap);
  const read = new FieldReader();
  const { notes } = read;

  const rawId = pick("id");
  const id = readId(rawId);
  if (!id) return { ok: false, reason: idProblem(rawId) };

  let timeZone = calendar.timeZone;
  const zone = pick("timeZone");
  if (typeof zone === "string" && zone.trim() !== "") {
    if (!isValidZone(zone.trim()))
      return { ok: false, reason: `unknown time zone "${excerpt(zone, 60)}"` };
    timeZone = zone.trim();
  }

  const times = resolveEventTimes(pick("start"), pick("end"), pick("allDay"), timeZone);
  if ("error" in times) return { ok: false, reason: times.error };

  const title = read.text(pick("title"), "title", RECORD_LIMITS.title);
  if (!title) return { ok: false, reason: "no title" };

  const status = readStatus(pick("status"), pick("cancelled"));
  if (status.note) notes.push(status.note);

  const descriptionHtml = read.description(pick("description"));
  const summaryText = read.text(pick("summary"), "summary", RECORD_LIMITS.summary);

  // A mapped placeId is the one place id read: a portal whose location records carry
  // an id per event (not per place) maps it elsewhere, or to a field it does not send.
  const ownPlaceId = options.fieldMap.event.placeId === undefined;
  const location = withPlaceId(
    readPlace(pick("location"), read, ownPlaceId),
    readId(pick("placeId")),
  );
  const onlineUrl = read.link(readUrlField(pick("onlineUrl")), "online URL");
  const updatedAt = parseInstant(pick("updatedAt"));
  const performers = readPerformers(pick("performer"), read);
  const access = readAccessFeatures(pick("accessibility"), read);
  const translations = readTranslations(records, options.fieldMap, read);
  const offer = readOffer({
    price: pick("offers.price"),
    currency: pick("offers.currency"),
    availability: pick("offers.availability"),
    validFrom: pick("offers.validFrom"),
  });

  return {
    ok: true,
    notes,
    value: {
      id,
      calendarId: calendar.id,
      title,
      summary: summaryText === title ? "" : summaryText,
      descriptionHtml,
      descriptionText: descriptionHtml ? htmlToText(descriptionHtml) : "",
      start: times.start,
      end: times.end,
      allDay: times.allDay,
      timeZone,
      status: status.value,
      attendanceMode: readAttendanceMode(pick("attendanceMode"), location, onlineUrl),
      location,
      onlineUrl,
      image: readImage(pick("image"), read),
      categories: readCategories(pick("categories"), read),
      organizer: readOrganizer(pick("organizer"), read),
      registrationUrl: read.link(readUrlField(pick("registrationUrl")), "registration URL"),
      ...optionalSeriesId(readSeriesId(pick("seriesId"))),
      ...optionalSameAs(readId(pick("sameAs"))),
      createdAt: parseInstant(pick("createdAt")),
      updatedAt,
      sequence: readSequence(pick("revision"), updatedAt),
      // Only when there are any: other events keep exactly the fields they had.
      ...(performers.length > 0 ? { performers } : {}),
      ...(offer ? { offer } : {}),
      ...(access.length > 0 ? { access } : {}),
      ...(translations ? { translations } : {}),
    },
  };
}

/**
 * The texts the field map's translation entries (`title.fr`) name, each read,
 * sanitized and held to the record's limits exactly as the portal's own
 * (notes name them: "title.fr: 412 characters, cut to 300"); null when the
 * record has none.
 */
function readTranslations(
  records: readonly WireRecord[],
  map: FieldMap,
  read: FieldReader,
): Record<string, EventTexts> | null {
  const translations: Record<string, EventTexts> = {};
  for (const [tag, fields] of fieldTranslations(map)) {
    const value = (path: string | undefined) =>
      path === undefined ? undefined : pickEventPath(records, path);
    const title = read.text(value(fields.title), `title.${tag}`, RECORD_LIMITS.title);
    const summary = read.text(value(fields.summary), `summary.${tag}`, RECORD_LIMITS.summary);
    const descriptionHtml = read.description(value(fields.description), `description.${tag}`);
    const texts: EventTexts = {
      ...(title ? { title } : {}),
      ...(summary && summary !== title ? { summary } : {}),
      ...(descriptionHtml ? { descriptionHtml, descriptionText: htmlToText(descriptionHtml) } : {}),
    };
    if (Object.keys(texts).length > 0) translations[tag] = texts;
  }
  return Object.keys(translations).length > 0 ? translations : null;
}

const STATUS: Readonly<Record<string, EventStatus>> = {
  scheduled: "scheduled",
  confirmed: "scheduled",
  active: "scheduled",
  published: "scheduled",
  tentative: "scheduled",
  planned: "scheduled",
  // schema.org EventRescheduled: the event has new dates, which are the ones we publish.
  rescheduled: "scheduled",
  movedonline: "scheduled",
  postponed: "postponed",
  delayed: "postponed",
  cancelled: "cancelled",
  canceled: "cancelled",
  deleted: "cancelled",
};

function readStatus(raw: unknown, cancelledFlag: unknown): { value: EventStatus; note?: string } {
  if (readBoolean(cancelledFlag) === true) return { value: "cancelled" };
  if (typeof raw !== "string" || raw.trim() === "") return { value: "scheduled" };
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/^(https?:\/\/schema\.org\/)?event/, "")
    .replace(/[^a-z]/g, "");
  const value = STATUS[key];
  if (value) return { value };
  return { value: "scheduled", note: `unknown status "${excerpt(raw, 40)}", treated as scheduled` };
}

function readAttendanceMode(
  raw: unknown,
  location: Place | null,
  onlineUrl: string | null,
): AttendanceMode {
  if (typeof raw === "string") {
    const key = raw.toLowerCase().replace(/^(https?:\/\/schema\.org\/)?/, "");
    if (/^(mixed|hybrid|mixedeventattendancemode)$/.test(key)) return "mixed";
    if (/^(online|virtual|onlineeventattendancemode)$/.test(key)) return "online";
    if (/^(offline|in[-_ ]?person|physical|offlineeventattendancemode)$/.test(key))
      return "offline";
  }
  if (onlineUrl && location) return "mixed";
  if (onlineUrl) return "online";
  return "offline";
}

function readUrlField(raw: unknown): unknown {
  return isPlainObject(raw) ? (raw.url ?? raw.href) : raw;
}

/** A place id given beside the location record (the field map's `placeId`) wins over one inside it. */
function withPlaceId(place: Place | null, id: string | null): Place | null {
  return place && id ? { ...place, id } : place;
}

/** A series id, given as such or as a series record's `id`. */
function readSeriesId(raw: unknown): string | null {
  return readId(isPlainObject(raw) ? raw.id : raw);
}

/** Only events of a series carry the field, so other events stay as they were. */
/** Only when the portal links one: other events keep exactly the fields they had. */
function optionalSameAs(sameAs: string | null): { sameAs?: string } {
  return sameAs ? { sameAs } : {};
}

function optionalSeriesId(seriesId: string | null): { seriesId?: string } {
  return seriesId ? { seriesId } : {};
}

function readPlace(raw: unknown, read: FieldReader, ownId = true): Place | null {
  if (typeof raw === "string") {
    const geo = readGeo(raw);
    if (geo) return { name: null, address: null, geo };
    const name = read.text(raw, "place name", RECORD_LIMITS.name);
    return name ? { name, address: null, geo: null } : null;
  }
  if (!isPlainObject(raw)) return null;
  const name =
    read.text(raw.name ?? raw.title ?? raw.venue, "place name", RECORD_LIMITS.name) || null;
  const address = readAddress(
    raw.address ?? (raw.street || raw.locality || raw.city ? raw : null),
    read,
  );
  const geo = readPlaceGeo(raw);
  if (!name && !address && !geo) return null;
  // Only places the portal names carry an id, so other places stay as they were.
  const id = ownId ? readId(raw.id ?? raw.placeId ?? raw.venueId) : null;
  return id ? { id, name, address, geo } : { name, address, geo };
}

function readAddress(raw: unknown, read: FieldReader): PostalAddress | null {
  if (typeof raw === "string") {
    const formatted = read.text(raw, "address", RECORD_LIMITS.addressLine);
    return formatted
      ? { street: null, locality: null, region: null, postalCode: null, country: null, formatted }
      : null;
  }
  if (!isPlainObject(raw)) return null;
  const part = (name: string, ...keys: string[]): string | null => {
    for (const key of keys) {
      const text = read.text(raw[key], `address ${name}`, RECORD_LIMITS.addressPart);
      if (text) return text;
    }
    return null;
  };
  const street = part("street", "street", "streetAddress", "street_address", "line1", "address1");
  const locality = part("locality", "locality", "city", "addressLocality", "town");
  const region = part("region", "region", "state", "province", "addressRegion");
  const postalCode = part("postal code", "postalCode", "postal_code", "postcode", "zip", "zipCode");
  const country = part("country", "country", "countryCode", "country_code", "addressCountry");
  const town = [postalCode, locality].filter(Boolean).join(" ");
  const formatted = [street, town, region, country].filter(Boolean).join(", ");
  if (!formatted) return null;
  return { street, locality, region, postalCode, country, formatted };
}

function readImage(raw: unknown, read: FieldReader): EventImage | null {
  const source = typeof raw === "string" ? { url: raw } : raw;
  if (!isPlainObject(source)) return null;
  const url = read.link(source.url ?? source.src ?? source.href, "image URL");
  if (!url || url.startsWith("mailto:")) return null;
  const size = (value: unknown): number | null => {
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;
  };
  return {
    url,
    alt: read.text(
      source.alt ?? source.altText ?? source.caption ?? source.title,
      "image text",
      RECORD_LIMITS.imageAlt,
    ),
    width: size(source.width),
    height: size(source.height),
  };
}

/**
 * Categories as a list of names or `{ id, name }` records, or one
 * comma-separated string; the first RECORD_LIMITS.categories of them, each
 * once (by id), each name at most RECORD_LIMITS.categoryName characters.
 */
function readCategories(raw: unknown, read: FieldReader): Category[] {
  const items = typeof raw === "string" ? raw.split(",") : Array.isArray(raw) ? raw : [];
  const seen = new Map<string, Category>();
  let cutNames = 0;
  for (const item of items) {
    const source = isPlainObject(item) ? (item.name ?? item.label ?? item.title) : item;
    const whole =
      typeof source === "string"
        ? plainTextLine(source)
        : typeof source === "number"
          ? String(source)
          : "";
    if (!whole) continue;
    const id = (isPlainObject(item) ? readId(item.id ?? item.slug) : null) ?? slugify(whole);
    if (!id || seen.has(id)) continue;
    if (seen.size === RECORD_LIMITS.categories) {
      read.notes.push(
        `${count(items.length)} categories, the first ${RECORD_LIMITS.categories} are published`,
      );
      break;
    }
    const name = cutText(whole, RECORD_LIMITS.categoryName);
    if (name !== whole) cutNames++;
    seen.set(id, { id, name });
  }
  if (cutNames > 0)
    read.notes.push(
      `${cutNames === 1 ? "a category name" : `${cutNames} category names`} cut to ${RECORD_LIMITS.categoryName} characters`,
    );
  return [...seen.values()];
}

function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
}

function readOrganizer(raw: unknown, read: FieldReader): Organizer | null {
  if (typeof raw === "string") {
    const name = read.text(raw, "organizer name", RECORD_LIMITS.name);
    return name ? { name, email: null, url: null } : null;
  }
  if (!isPlainObject(raw)) return null;
  const name = read.text(raw.name ?? raw.title, "organizer name", RECORD_LIMITS.name);
  if (!name) return null;
  const email =
    typeof raw.email === "string" &&
    raw.email.trim().length <= RECORD_LIMITS.email &&
    EMAIL.test(raw.email.trim())
      ? raw.email.trim()
      : null;
  const url = read.link(raw.url ?? raw.website, "organizer URL");
  return { name, email, url: url?.startsWith("mailto:") ? null : url };
}

/**
 * Something@somewhere, without spaces, markup, control or formatting
 * characters (a bidirectional override would turn the address around) or
 * lone surrogates.
 */
const EMAIL = /^[^\s@<>"\p{Cc}\p{Cf}\p{Cs}]+@[^\s@<>"\p{Cc}\p{Cf}\p{Cs}]+$/u;

/** Seconds from this epoch give a SEQUENCE that fits a signed 32-bit integer until 2088. */
const SEQUENCE_EPOCH = DateTime.fromISO("2020-01-01T00:00:00Z").toMillis();
const INT32_MAX = 2_147_483_647;

/**
 * iCalendar SEQUENCE (RFC 5545 section 3.8.7.4) must rise with each change:
 * the portal's revision when it has one, else whole seconds of `updatedAt`
 * since 2020-01-01T00:00:00Z (0 when unknown or earlier).
 */
export function readSequence(revision: unknown, updatedAt: string | null): number {
  const n = typeof revision === "string" ? Number(revision.trim()) : revision;
  if (typeof n === "number" && Number.isInteger(n) && n >= 0) return Math.min(n, INT32_MAX);
  if (!updatedAt) return 0;
  const seconds = Math.floor((Date.parse(updatedAt) - SEQUENCE_EPOCH) / 1000);
  return Math.max(0, Math.min(seconds, INT32_MAX));
}
