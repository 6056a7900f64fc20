import { DateTime } from "luxon";
import { isValidZone, parseInstant, readBoolean, resolveEventTimes } from "./dates.ts";
import { type EventField, isPlainObject, pickEventField } from "./field-map.ts";
import { readGeo, readPlaceGeo } from "./geo.ts";
import { type Normalized, type NormalizeOptions, readId, readText } from "./normalize-calendar.ts";
import { readOffer, readPerformers } from "./normalize-offer.ts";
import { htmlToText, safeLink, sanitizeDescription } from "./sanitize.ts";
import type {
  AttendanceMode,
  Calendar,
  CalendarEvent,
  Category,
  EventImage,
  EventStatus,
  Organizer,
  Place,
  PostalAddress,
} from "./types.ts";
import type { WireRecord } from "./wire.ts";

/**
 * One event from its list record and (when fetched) its details record; the
 * details win where both have a field. The zone comes from the event, else its
 * calendar (which already fell back to the site default).
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
  const notes: string[] = [];

  const id = readId(pick("id"));
  if (!id) return { ok: false, reason: "no id" };

  let timeZone = calendar.timeZone;
  const zone = pick("timeZone");
  if (typeof zone === "string" && zone.trim() !== "") {
    if (!isValidZone(zone.trim()))
      return { ok: false, reason: `unknown time zone "${zone.slice(0, 60)}"` };
    timeZone = zone.trim();
  }

  const times = resolveEventTimes(pick("start"), pick("end"), pick("allDay"), timeZone);
  if ("error" in times) return { ok: false, reason: times.error };

  const title = readText(pick("title"));
  if (!title) return { ok: false, reason: "no title" };

  const status = readStatus(pick("status"), pick("cancelled"));
  if (status.note) notes.push(status.note);

  const descriptionRaw = pick("description");
  const descriptionHtml =
    typeof descriptionRaw === "string" ? sanitizeDescription(descriptionRaw) : "";
  const summaryText = readText(pick("summary"));

  // A mapped placeId is the one place id read: a portal whose location records carry
  // an id per event (not per place) maps it elsewhere, or to a field it does not send.
  const ownPlaceId = options.fieldMap.event.placeId === undefined;
  const location = withPlaceId(readPlace(pick("location"), ownPlaceId), readId(pick("placeId")));
  const onlineUrl = safeLink(readUrlField(pick("onlineUrl")));
  const updatedAt = parseInstant(pick("updatedAt"));
  const performers = readPerformers(pick("performer"));
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
      image: readImage(pick("image")),
      categories: readCategories(pick("categories")),
      organizer: readOrganizer(pick("organizer")),
      registrationUrl: safeLink(readUrlField(pick("registrationUrl"))),
      ...optionalSeriesId(readSeriesId(pick("seriesId"))),
      createdAt: parseInstant(pick("createdAt")),
      updatedAt,
      sequence: readSequence(pick("revision"), updatedAt),
      // Only when there are any: other events keep exactly the fields they had.
      ...(performers.length > 0 ? { performers } : {}),
      ...(offer ? { offer } : {}),
    },
  };
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
  return { value: "scheduled", note: `unknown status "${raw.slice(0, 40)}", treated as scheduled` };
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
function optionalSeriesId(seriesId: string | null): { seriesId?: string } {
  return seriesId ? { seriesId } : {};
}

function readPlace(raw: unknown, ownId = true): Place | null {
  if (typeof raw === "string") {
    const geo = readGeo(raw);
    if (geo) return { name: null, address: null, geo };
    const name = readText(raw);
    return name ? { name, address: null, geo: null } : null;
  }
  if (!isPlainObject(raw)) return null;
  const name = readText(raw.name ?? raw.title ?? raw.venue) || null;
  const address = readAddress(raw.address ?? (raw.street || raw.locality || raw.city ? raw : null));
  const geo = readPlaceGeo(raw);
  if (!name && !address && !geo) return null;
  // Only places the portal names carry an id, so other places stay as they were.
  const id = ownId ? readId(raw.id ?? raw.placeId ?? raw.venueId) : null;
  return id ? { id, name, address, geo } : { name, address, geo };
}

function readAddress(raw: unknown): PostalAddress | null {
  if (typeof raw === "string") {
    const formatted = readText(raw);
    return formatted
      ? { street: null, locality: null, region: null, postalCode: null, country: null, formatted }
      : null;
  }
  if (!isPlainObject(raw)) return null;
  const part = (...keys: string[]): string | null => {
    for (const key of keys) {
      const text = readText(raw[key]);
      if (text) return text;
    }
    return null;
  };
  const street = part("street", "streetAddress", "street_address", "line1", "address1");
  const locality = part("locality", "city", "addressLocality", "town");
  const region = part("region", "state", "province", "addressRegion");
  const postalCode = part("postalCode", "postal_code", "postcode", "zip", "zipCode");
  const country = part("country", "countryCode", "country_code", "addressCountry");
  const town = [postalCode, locality].filter(Boolean).join(" ");
  const formatted = [street, town, region, country].filter(Boolean).join(", ");
  if (!formatted) return null;
  return { street, locality, region, postalCode, country, formatted };
}

function readImage(raw: unknown): EventImage | null {
  const source = typeof raw === "string" ? { url: raw } : raw;
  if (!isPlainObject(source)) return null;
  const url = safeLink(source.url ?? source.src ?? source.href);
  if (!url || url.startsWith("mailto:")) return null;
  const size = (value: unknown): number | null => {
    const n = Number(value);
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  return {
    url,
    alt: readText(source.alt ?? source.altText ?? source.caption ?? source.title),
    width: size(source.width),
    height: size(source.height),
  };
}

function readCategories(raw: unknown): Category[] {
  const items = typeof raw === "string" ? raw.split(",") : Array.isArray(raw) ? raw : [];
  const seen = new Map<string, Category>();
  for (const item of items) {
    const name = readText(isPlainObject(item) ? (item.name ?? item.label ?? item.title) : item);
    if (!name) continue;
    const id = (isPlainObject(item) ? readId(item.id ?? item.slug) : null) ?? slugify(name);
    if (id && !seen.has(id)) seen.set(id, { id, name });
  }
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

function readOrganizer(raw: unknown): Organizer | null {
  if (typeof raw === "string") {
    const name = readText(raw);
    return name ? { name, email: null, url: null } : null;
  }
  if (!isPlainObject(raw)) return null;
  const name = readText(raw.name ?? raw.title);
  if (!name) return null;
  const email =
    typeof raw.email === "string" && /^[^\s@<>"]+@[^\s@<>"]+$/.test(raw.email.trim())
      ? raw.email.trim()
      : null;
  const url = safeLink(raw.url ?? raw.website);
  return { name, email, url: url?.startsWith("mailto:") ? null : url };
}

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
