import type { CalendarEvent, PostalAddress } from "../../model/types.ts";

/**
 * What the pages' microformats2 markup (h-event, h-card, h-adr) needs beyond
 * the event itself: start and end values as readers of h-event expect them,
 * and an address split into its parts with the same text the page showed
 * before. Pure functions of the event: the markup never depends on the build
 * machine or its clock.
 */

/** dt-start: the start instant with its offset, or the date of an all-day event. */
export function hEventStart(event: Pick<CalendarEvent, "start" | "allDay">): string {
  return event.allDay ? event.start.slice(0, 10) : event.start;
}

/**
 * dt-end: the end instant of a timed event (none when it has no end), or the
 * last day of an all-day event that lasts several days. Readers show dt-end as
 * written, so an all-day event ends on its last day, as its page says, not on
 * the exclusive next midnight the model keeps (RFC 5545).
 */
export function hEventEnd(event: Pick<CalendarEvent, "start" | "end" | "allDay">): string {
  if (!event.allDay) return event.end === event.start ? "" : event.end;
  const last = new Date(`${event.end.slice(0, 10)}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() - 1);
  const lastDay = last.toISOString().slice(0, 10);
  return lastDay > event.start.slice(0, 10) ? lastDay : "";
}

export interface AddressPart {
  /** The h-adr property: p-street-address, p-postal-code, p-locality... or p-label. */
  readonly className: string;
  readonly text: string;
  /** The separator written before it, as in the address's one-line form. */
  readonly before: string;
}

/**
 * The address's one-line form (`formatted`, src/model/normalize-event.ts:
 * "street, postcode locality, region, country") cut into h-adr properties. An
 * address the portal gave as one line has no parts: it is its label.
 */
export function addressParts(address: PostalAddress): AddressPart[] {
  const parts: AddressPart[] = [];
  const add = (className: string, text: string | null, before: string) => {
    if (text) parts.push({ className, text, before: parts.length ? before : "" });
  };
  add("p-street-address", address.street, ", ");
  add("p-postal-code", address.postalCode, ", ");
  add("p-locality", address.locality, address.postalCode ? " " : ", ");
  add("p-region", address.region, ", ");
  add("p-country-name", address.country, ", ");
  const oneLine = parts.map((part) => part.before + part.text).join("");
  return oneLine === address.formatted
    ? parts
    : [{ className: "p-label", text: address.formatted, before: "" }];
}
