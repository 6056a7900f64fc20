import { DateTime, IANAZone } from "luxon";
import { PublisherError } from "../errors.ts";
import { isValidId } from "./ids.ts";
import type {
  DatasetCalendar,
  DatasetEvent,
  DatasetOrganization,
  PortalDataset,
  WireAddress,
  WireCategory,
  WireImage,
  WireLocation,
  WireOrganizer,
} from "./types.ts";

/** A dataset that cannot be served; the message names every bad record. */
export class DatasetError extends PublisherError {
  override name = "DatasetError";
}

const MAX_REPORTED = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const MEDIA_PATH = /^\/media\/[A-Za-z0-9._-]{1,100}\.svg$/;
const STATUSES = new Set(["scheduled", "postponed", "cancelled"]);
const MODES = new Set(["offline", "online", "mixed"]);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks a parsed dataset (docs/dataset.md) and returns it with optional
 * fields filled in. Throws one DatasetError listing the problems, each
 * prefixed with the record it concerns (`events[12] "e1042": ...`).
 */
export function validateDataset(input: unknown): PortalDataset {
  const problems: string[] = [];
  if (!isObject(input)) throw new DatasetError("dataset: expected a JSON object");
  if (input.version !== 1) problems.push("dataset: version must be 1");
  for (const key of ["organizations", "calendars", "events"]) {
    if (!Array.isArray(input[key])) problems.push(`dataset: ${key} must be an array`);
  }
  if (problems.length > 0) throw new DatasetError(problems.join("\n"));
  const zones = new Map<string, boolean>();
  const validZone = (zone: unknown): zone is string => {
    if (typeof zone !== "string") return false;
    let valid = zones.get(zone);
    if (valid === undefined) {
      valid = IANAZone.isValidZone(zone);
      zones.set(zone, valid);
    }
    return valid;
  };

  const organizations: DatasetOrganization[] = [];
  const orgIds = new Set<string>();
  (input.organizations as unknown[]).forEach((raw, index) => {
    const r = new RecordCheck(`organizations[${index}]`, raw, problems);
    const id = r.id("id");
    if (id && orgIds.has(id)) r.fail("id", "duplicates an earlier organization");
    if (id) orgIds.add(id);
    organizations.push({ id: id ?? "", name: r.text("name", true) });
  });
  if (organizations.length === 0) problems.push("dataset: organizations must not be empty");

  const calendars: DatasetCalendar[] = [];
  const calendarZones = new Map<string, string>();
  (input.calendars as unknown[]).forEach((raw, index) => {
    const r = new RecordCheck(`calendars[${index}]`, raw, problems);
    const id = r.id("id");
    if (id && calendarZones.has(id)) r.fail("id", "duplicates an earlier calendar");
    const timeZone = r.get("timeZone");
    if (!validZone(timeZone)) r.fail("timeZone", "must be an IANA time zone name");
    const color = r.get("color") ?? null;
    if (color !== null && !(typeof color === "string" && COLOR.test(color))) {
      r.fail("color", "must be #rrggbb or null");
    }
    const orgs = r.get("organizations");
    const orgList = Array.isArray(orgs) ? orgs : [];
    if (orgList.length === 0) r.fail("organizations", "must list at least one organization id");
    for (const org of orgList) {
      if (!orgIds.has(org)) r.fail("organizations", `unknown organization ${JSON.stringify(org)}`);
    }
    if (id) calendarZones.set(id, typeof timeZone === "string" ? timeZone : "UTC");
    calendars.push({
      id: id ?? "",
      name: r.text("name", true),
      description: r.text("description", false),
      timeZone: String(timeZone),
      color: color as string | null,
      updatedAt: r.instant("updatedAt"),
      organizations: orgList as string[],
    });
  });

  const events: DatasetEvent[] = [];
  const eventKeys = new Set<string>();
  (input.events as unknown[]).forEach((raw, index) => {
    const label = isObject(raw) && typeof raw.id === "string" ? ` ${JSON.stringify(raw.id)}` : "";
    const r = new RecordCheck(`events[${index}]${label}`, raw, problems);
    const id = r.id("id");
    const calendarId = r.get("calendarId");
    const calendarZone = typeof calendarId === "string" ? calendarZones.get(calendarId) : undefined;
    if (calendarZone === undefined) r.fail("calendarId", "names no calendar of the dataset");
    const key = `${String(calendarId)}\u0000${id}`;
    if (id && eventKeys.has(key)) r.fail("id", "duplicates an earlier event of the same calendar");
    eventKeys.add(key);
    const allDay = r.get("allDay") ?? false;
    if (typeof allDay !== "boolean") r.fail("allDay", "must be true or false");
    const timeZone = r.get("timeZone") ?? calendarZone ?? "UTC";
    if (!validZone(timeZone)) r.fail("timeZone", "must be an IANA time zone name");
    const start = r.get("start");
    const end = r.get("end") ?? start;
    checkTimes(r, allDay === true, start, end);
    const status = r.get("status") ?? "scheduled";
    if (!STATUSES.has(status as string))
      r.fail("status", "must be scheduled, postponed or cancelled");
    const mode = r.get("attendanceMode") ?? "offline";
    if (!MODES.has(mode as string)) r.fail("attendanceMode", "must be offline, online or mixed");
    const revision = r.get("revision") ?? 1;
    if (!Number.isInteger(revision) || (revision as number) < 1) {
      r.fail("revision", "must be an integer of at least 1");
    }
    const createdAt = r.instant("createdAt");
    const accessibility = r.get("accessibility");
    if (
      accessibility !== undefined &&
      !(Array.isArray(accessibility) && accessibility.every((item) => typeof item === "string"))
    )
      r.fail("accessibility", "must be a list of texts");
    const translations = r.nullable("translations", checkTranslations);
    events.push({
      id: id ?? "",
      calendarId: String(calendarId),
      title: r.text("title", true),
      start: String(start),
      end: String(end),
      allDay: allDay === true,
      timeZone: String(timeZone),
      status: status as DatasetEvent["status"],
      revision: revision as number,
      updatedAt: r.get("updatedAt") === undefined ? createdAt : r.instant("updatedAt"),
      summary: r.text("summary", false),
      description: r.text("description", false),
      location: r.nullable("location", checkLocation),
      onlineUrl: r.nullable("onlineUrl", checkUrl),
      attendanceMode: mode as DatasetEvent["attendanceMode"],
      image: r.nullable("image", checkImage),
      categories: checkCategories(r),
      organizer: r.nullable("organizer", checkOrganizer),
      registrationUrl: r.nullable("registrationUrl", checkUrl),
      createdAt,
      ...(Array.isArray(accessibility) ? { accessibility: accessibility.map(String) } : {}),
      ...(translations ? { translations } : {}),
    });
  });

  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED);
    if (problems.length > MAX_REPORTED)
      shown.push(`... and ${problems.length - MAX_REPORTED} more`);
    throw new DatasetError(`invalid dataset:\n${shown.join("\n")}`);
  }
  return { version: 1, organizations, calendars, events };
}

function checkTimes(r: RecordCheck, allDay: boolean, start: unknown, end: unknown) {
  if (allDay) {
    const startDate =
      typeof start === "string" && DATE.test(start) ? DateTime.fromISO(start) : null;
    const endDate = typeof end === "string" && DATE.test(end) ? DateTime.fromISO(end) : null;
    if (!startDate?.isValid)
      return r.fail("start", "must be a date YYYY-MM-DD for an all-day event");
    if (!endDate?.isValid) return r.fail("end", "must be a date YYYY-MM-DD for an all-day event");
    if (endDate <= startDate) r.fail("end", "must be after start (the end date is exclusive)");
    return;
  }
  const startMs =
    typeof start === "string" && DATE_TIME.test(start) ? Date.parse(start) : Number.NaN;
  const endMs = typeof end === "string" && DATE_TIME.test(end) ? Date.parse(end) : Number.NaN;
  if (Number.isNaN(startMs)) return r.fail("start", "must be ISO 8601 date-time with an offset");
  if (Number.isNaN(endMs)) return r.fail("end", "must be ISO 8601 date-time with an offset");
  if (endMs < startMs) r.fail("end", "must not be before start");
}

type Check<T> = (value: unknown, fail: (why: string) => void) => T | null;

const checkUrl: Check<string> = (value, fail) => {
  if (typeof value === "string" && /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value)) {
    return value;
  }
  fail("must be an absolute http(s) URL or null");
  return null;
};

const optionalText = (value: unknown): string | null => (typeof value === "string" ? value : null);

const checkLocation: Check<WireLocation> = (value, fail) => {
  if (!isObject(value)) {
    fail("must be an object or null");
    return null;
  }
  let address: WireAddress | null = null;
  if (isObject(value.address)) {
    const a = value.address;
    address = {
      street: optionalText(a.street),
      locality: optionalText(a.locality),
      region: optionalText(a.region),
      postalCode: optionalText(a.postalCode),
      country: optionalText(a.country),
    };
  } else if (value.address != null) fail("address must be an object or null");
  let geo: WireLocation["geo"] = null;
  if (isObject(value.geo)) {
    const { lat, lon } = value.geo;
    if (
      typeof lat === "number" &&
      typeof lon === "number" &&
      Math.abs(lat) <= 90 &&
      Math.abs(lon) <= 180
    ) {
      geo = { lat, lon };
    } else fail("geo must have lat (-90..90) and lon (-180..180)");
  } else if (value.geo != null) fail("geo must be an object or null");
  return { name: optionalText(value.name), address, geo };
};

const checkImage: Check<WireImage> = (value, fail) => {
  if (!isObject(value)) {
    fail("must be an object or null");
    return null;
  }
  const url = value.url;
  const urlOk =
    typeof url === "string" && (MEDIA_PATH.test(url) || checkUrl(url, () => {}) !== null);
  if (!urlOk) fail("url must be an absolute http(s) URL or a /media/<name>.svg path");
  const size = (v: unknown) => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : null);
  return {
    url: String(url),
    alt: typeof value.alt === "string" ? value.alt : "",
    width: size(value.width),
    height: size(value.height),
  };
};

const checkOrganizer: Check<WireOrganizer> = (value, fail) => {
  if (!isObject(value) || typeof value.name !== "string" || value.name === "") {
    fail("must be an object with a name, or null");
    return null;
  }
  return { name: value.name, email: optionalText(value.email), url: optionalText(value.url) };
};

function checkCategories(r: RecordCheck): WireCategory[] {
  const value = r.get("categories") ?? [];
  if (!Array.isArray(value)) {
    r.fail("categories", "must be an array");
    return [];
  }
  return value.flatMap((item, i) => {
    if (isObject(item) && isValidId(item.id) && typeof item.name === "string") {
      return [{ id: item.id, name: item.name }];
    }
    r.fail(`categories[${i}]`, "must be { id, name } with a valid id");
    return [];
  });
}

/** A language tag as wire field names carry it: letters, digits and hyphens. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const TRANSLATED = new Set(["title", "summary", "description"]);

/** `{ "<tag>": { title?, summary?, description? } }`, texts only. */
const checkTranslations: Check<NonNullable<DatasetEvent["translations"]>> = (value, fail) => {
  if (!isObject(value)) {
    fail("must be an object of language tags");
    return {};
  }
  const translations: NonNullable<DatasetEvent["translations"]> = {};
  for (const [tag, texts] of Object.entries(value)) {
    const fields = isObject(texts) ? Object.entries(texts) : null;
    if (
      !LANGUAGE_TAG.test(tag) ||
      !fields?.every(([field, text]) => TRANSLATED.has(field) && typeof text === "string")
    ) {
      fail(`"${tag}": expected a language tag with title, summary or description texts`);
      continue;
    }
    translations[tag] = Object.fromEntries(fields);
  }
  return translations;
};

/** Field access for one record, collecting problems under its label. */
class RecordCheck {
  private readonly record: Json;
  constructor(
    private readonly label: string,
    raw: unknown,
    private readonly problems: string[],
  ) {
    this.record = isObject(raw) ? raw : {};
    if (!isObject(raw)) problems.push(`${label}: expected an object`);
  }
  get(field: string): unknown {
    return this.record[field];
  }
  fail(field: string, why: string): void {
    this.problems.push(`${this.label}: ${field} ${why}`);
  }
  id(field: string): string | undefined {
    const value = this.record[field];
    if (isValidId(value)) return value;
    this.fail(field, "must be 1-128 characters from A-Z a-z 0-9 . _ ~ - (not only dots)");
    return undefined;
  }
  text(field: string, required: boolean): string {
    const value = this.record[field];
    if (typeof value === "string" && (!required || value.trim() !== "")) return value;
    if (value === undefined && !required) return "";
    this.fail(field, required ? "must be a non-empty string" : "must be a string");
    return "";
  }
  instant(field: string): string {
    const value = this.record[field];
    if (typeof value === "string" && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) {
      return value;
    }
    this.fail(field, "must be an ISO 8601 date-time with an offset");
    return "";
  }
  nullable<T>(field: string, check: Check<T>): T | null {
    const value = this.record[field];
    if (value === undefined || value === null) return null;
    return check(value, (why) => this.fail(field, why));
  }
}
