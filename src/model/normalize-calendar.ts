import { isValidZone, parseInstant } from "./dates.ts";
import { type FieldMap, pickCalendarField } from "./field-map.ts";
import { plainTextLine } from "./sanitize.ts";
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
  const id = readId(pick("id"));
  if (!id) return { ok: false, reason: "no id" };
  const notes: string[] = [];

  let timeZone = options.defaultTimeZone;
  const zone = pick("timeZone");
  if (typeof zone === "string" && zone.trim() !== "") {
    if (isValidZone(zone.trim())) timeZone = zone.trim();
    else notes.push(`unknown time zone "${zone.slice(0, 60)}", using ${timeZone}`);
  }

  const name = readText(pick("name"));
  if (!name) notes.push("no name, using the id");

  return {
    ok: true,
    notes,
    value: {
      id,
      name: name || id,
      description: readText(pick("description")),
      timeZone,
      color: readColor(pick("color")),
      updatedAt: parseInstant(pick("updatedAt")),
    },
  };
}

/** Ids are opaque: strings kept verbatim, whole numbers turned into strings. */
export function readId(raw: unknown): string | null {
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return String(raw);
  if (typeof raw !== "string") return null;
  const id = raw.trim();
  return id !== "" && id.length <= 256 ? id : null;
}

/** One line of plain text, as written in the portal (see plainTextLine). */
export function readText(raw: unknown): string {
  if (typeof raw === "number") return String(raw);
  if (typeof raw !== "string") return "";
  return plainTextLine(raw);
}

function readColor(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const match = /^#?([\da-f]{3}|[\da-f]{6})$/i.exec(raw.trim());
  if (!match?.[1]) return null;
  const hex = match[1].toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
}
