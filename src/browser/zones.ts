import { formatter } from "./formatter.ts";

/** The visitor's zone (IANA), as their device sets it. */
export function visitorZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** A zone's exemplar city, as a reader names it ("America/New_York" is "New York"), if it has one. */
export function zoneCity(zone: string): string | undefined {
  const city = /^(?!Etc\/)[A-Za-z]+\/(?:[A-Za-z_-]+\/)?([A-Za-z_-]+)$/.exec(zone)?.[1];
  return city?.replace(/_/g, " ");
}

/** Intl's short name of a zone at an instant ("CET", "GMT+3"), or "" when it has none. */
export function zoneAbbreviation(zone: string, lang: string, at: Date): string {
  const parts = formatter(lang, zone, { timeZoneName: "short" }).formatToParts(at);
  return parts.find((part) => part.type === "timeZoneName")?.value || "";
}
