import { tzlib_get_ical_block, tzlib_get_timezones } from "timezones-ical-library";

/**
 * VTIMEZONE blocks for ical-generator's `timezone.generator` (RFC 5545 3.6.5:
 * every TZID used must have a VTIMEZONE, or clients guess and shift times).
 *
 * timezones-ical-library returns `[block, "TZID=..."]` and resolves links to
 * their canonical zone: "Europe/Amsterdam" comes back as a block with
 * `TZID:Europe/Brussels`. Our DTSTART/DTEND carry the event's own zone name,
 * so the block's TZID (and X-LIC-LOCATION) is rewritten to the requested
 * name; the rules are those of the zone the name links to, which is exactly
 * what the link means in the tz database.
 */

let supported: ReadonlySet<string> | undefined;
const cache = new Map<string, string | null>();

function supportedZones(): ReadonlySet<string> {
  if (!supported) {
    const list = tzlib_get_timezones();
    supported = new Set(Array.isArray(list) ? list : (JSON.parse(list) as string[]));
  }
  return supported;
}

/** True when a VTIMEZONE can be generated for the zone. */
/**
 * The VTIMEZONE block (CRLF line ends, no trailing CRLF) for an IANA zone, or
 * null when the library does not know it; callers then write UTC times.
 */
export function vtimezone(zone: string): string | null {
  const cached = cache.get(zone);
  if (cached !== undefined) return cached;
  // Checked first: the library logs to the console for unknown names.
  const result = supportedZones().has(zone) ? buildBlock(zone) : null;
  cache.set(zone, result);
  return result;
}

function buildBlock(zone: string): string | null {
  const answer = tzlib_get_ical_block(zone);
  const block = Array.isArray(answer) ? answer[0] : undefined;
  if (!block?.includes("BEGIN:VTIMEZONE")) return null;
  return block
    .replace(/\r?\n/g, "\r\n")
    .replace(/^TZID:.*$/m, `TZID:${zone}`)
    .replace(/^X-LIC-LOCATION:.*$/m, `X-LIC-LOCATION:${zone}`)
    .trim();
}
