import { isValidZone, parseInstant } from "./dates.ts";
import { type FieldMap, pickCalendarField } from "./field-map.ts";
import { excerpt, FieldReader } from "./field-reader.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import type { Calendar } from "./types.ts";
import type { WireRecord } from "./wire.ts";

export interface NormalizeOptions {
  readonly fieldMap: FieldMap;
  /** Site default zone (SITE_TIMEZONE), used when the portal gives none. */
  readonly defaultTimeZone: string;
}

/** A usable record with notes about repairs, or the reason it was skipped. */
export type Normalized<T> =
  | { readonly ok: true; readonly value: T; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

export function normalizeCalendar(
  record: WireRecord,
  options: NormalizeOptions,
): Normalized<Calendar> {
  const pick = (field: Parameters<typeof pickCalendarField>[1]) =>
    pickCalendarField([record], field, options.fieldMap);
  const rawId = pick("id");
  const id = readId(rawId);
  if (!id) return { ok: false, reason: idProblem(rawId) };
  const read = new FieldReader();
  const { notes } = read;

  let timeZone = options.defaultTimeZone;
  const zone = pick("timeZone");
  if (typeof zone === "string" && zone.trim() !== "") {
    if (isValidZone(zone.trim())) timeZone = zone.trim();
    else notes.push(`unknown time zone "${excerpt(zone, 60)}", using ${timeZone}`);
  }

  const name = read.text(pick("name"), "name", RECORD_LIMITS.title);
  if (!name) notes.push("no name, using the id");

  return {
    ok: true,
    notes,
    value: {
      id,
      name: name || id,
      description: read.text(pick("description"), "description", RECORD_LIMITS.calendarDescription),
      timeZone,
      color: readColor(pick("color")),
      updatedAt: parseInstant(pick("updatedAt")),
    },
  };
}

/**
 * Ids are opaque: strings kept verbatim, whole numbers turned into strings.
 * An id names a record's addresses and calendar UIDs for good, so one that
 * cannot be kept exactly is no id: longer than 256 characters, or not
 * well-formed Unicode (a lone surrogate has no UTF-8 bytes; replaced, two
 * such ids could become one address, and the next build's portal spelling
 * another).
 */
export function readId(raw: unknown): string | null {
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return String(raw);
  if (typeof raw !== "string") return null;
  const id = raw.trim();
  return id !== "" && id.length <= MAX_ID_LENGTH && id.isWellFormed() ? id : null;
}

const MAX_ID_LENGTH = 256;

/** Why `readId` read no id from a record's id field. */
export function idProblem(raw: unknown): string {
  if (typeof raw === "string" && raw.trim() !== "") {
    if (raw.trim().length > MAX_ID_LENGTH) return `id longer than ${MAX_ID_LENGTH} characters`;
    if (!raw.isWellFormed()) return "id is not well-formed Unicode (a lone UTF-16 surrogate)";
  }
  return "no id";
}

function readColor(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const match = /^#?([\da-f]{3}|[\da-f]{6})$/i.exec(raw.trim());
  if (!match?.[1]) return null;
  const hex = match[1].toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
}
