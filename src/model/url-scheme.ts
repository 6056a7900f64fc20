import { createHash } from "node:crypto";

/**
 * Portal ids become URL path segments and folder names. Any id the portal can
 * return must give a safe, unique segment, identical on case-insensitive file
 * systems, and stable across builds (links and calendar subscriptions depend
 * on it).
 *
 * - lowercase ASCII letters, digits and inner hyphens, up to 64 chars: kept as is;
 * - anything else: "_" + hex of its UTF-8 bytes (unique; "_" never starts a kept id);
 * - longer than 32 bytes and not plain: "__" + SHA-256 hex (unique in practice).
 */
const PLAIN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function encodeIdSegment(id: string): string {
  if (PLAIN.test(id)) return id;
  const bytes = Buffer.from(id, "utf8");
  if (bytes.length <= 32) return `_${bytes.toString("hex")}`;
  return `__${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Site-relative URLs (leading and trailing slash). Join with SITE_URL for absolute ones. */
export const paths = {
  home: () => "/",
  calendars: () => "/calendars/",
  calendar: (calendarId: string) => `/calendars/${encodeIdSegment(calendarId)}/`,
  calendarPast: (calendarId: string) => `/calendars/${encodeIdSegment(calendarId)}/past/`,
  calendarMonth: (calendarId: string, year: number, month: number) =>
    `/calendars/${encodeIdSegment(calendarId)}/${year}/${String(month).padStart(2, "0")}/`,
  event: (calendarId: string, eventId: string) =>
    `/calendars/${encodeIdSegment(calendarId)}/events/${encodeIdSegment(eventId)}/`,
  category: (categoryId: string) => `/categories/${encodeIdSegment(categoryId)}/`,
  /** Folder of the feeds and calendar of one calendar's events in one category (no HTML page). */
  calendarCategory: (calendarId: string, categoryId: string) =>
    `/calendars/${encodeIdSegment(calendarId)}/categories/${encodeIdSegment(categoryId)}/`,
  /** Every upcoming event, 20 a page (`page/2/`...). */
  events: () => "/events/",
  /** The search page; filters ride in the query string (docs/site.md, "Search and filters"). */
  search: (filters: Readonly<Record<string, string>> = {}) => {
    const query = new URLSearchParams(filters).toString();
    return query ? `/search/?${query}` : "/search/";
  },
  embed: (calendarId: string) => `/embed/${encodeIdSegment(calendarId)}/`,
} as const;
