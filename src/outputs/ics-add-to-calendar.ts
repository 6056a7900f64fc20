import { eventTimes } from "../model/event-times.ts";
import type { CalendarEvent } from "../model/types.ts";
import { formatPlace, multiLine, singleLine, statusLabel } from "./event-text.ts";
import { normalizeHttpUrl } from "./feeds-image-type.ts";

/**
 * "Add to calendar" links for one event: the event templates of Google
 * Calendar, Outlook.com, Microsoft 365 and Yahoo Calendar, and our
 * single-event .ics download (Apple, Thunderbird, desktop Outlook). The web
 * links carry UTC instants (all-day events: dates, with the exclusive end
 * Google and Outlook expect and the last day Yahoo expects), so no client has
 * to guess the zone; Google also gets `ctz` to show the event in its own zone.
 * Each adds a copy: to follow the event's changes, the page offers its
 * series' or calendar's subscription beside them (add-to-calendar.njk).
 */
export interface AddToCalendarLinks {
  readonly google: string;
  readonly outlook: string;
  readonly office365: string;
  /** Yahoo Calendar's event form (`v=60`, the form add-to-calendar buttons have long used). */
  readonly yahoo: string;
  /** Absolute URL of the event's event.ics, next to its page; or its bytes as a data: URL. */
  readonly ics: string;
  /** The file name a download link gives an inline `ics` (a data: URL has none of its own). */
  readonly download?: string;
}

/** Keeps the links well under the ~2,000 characters some browsers and services accept. */
const MAX_DETAILS = 800;

export function addToCalendarLinks(
  event: CalendarEvent,
  eventUrl: string,
  lang = "en",
): AddToCalendarLinks | null {
  const times = eventTimes(event);
  if (!times) return null;
  const status = statusLabel(event.status, lang);
  const title = singleLine(status ? `${status}: ${event.title}` : event.title);
  const details =
    `${truncate(multiLine(event.summary || event.descriptionText))}\n\n${eventUrl}`.trim();
  const location = formatPlace(event) ?? normalizeHttpUrl(event.onlineUrl) ?? "";

  // UTC instants as Date writes them: Luxon's toUTC and toFormat cost ten times more.
  const start = new Date(times.start.toMillis()).toISOString().replace(".000Z", "Z");
  const end = new Date(times.end.toMillis()).toISOString().replace(".000Z", "Z");
  const firstDay = event.allDay ? times.start.startOf("day") : null;
  const endDay = firstDay
    ? times.end.startOf("day") > firstDay
      ? times.end.startOf("day")
      : firstDay.plus({ days: 1 })
    : null;

  const googleDates =
    firstDay && endDay
      ? `${firstDay.toFormat("yyyyLLdd")}/${endDay.toFormat("yyyyLLdd")}`
      : `${compactUtc(start)}/${compactUtc(end)}`;
  const google = query("https://calendar.google.com/calendar/render", {
    action: "TEMPLATE",
    text: title,
    dates: googleDates,
    details,
    location,
    ctz: event.timeZone,
  });

  const outlookParams = {
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: title,
    startdt: firstDay?.toISODate() ?? start,
    enddt: endDay?.toISODate() ?? end,
    allday: event.allDay ? "true" : "false",
    body: details,
    location,
  };
  const outlookQuery = query("", outlookParams);
  const yahoo = query("https://calendar.yahoo.com/", {
    v: "60",
    title,
    st: firstDay ? firstDay.toFormat("yyyyLLdd") : compactUtc(start),
    et: endDay ? endDay.minus({ days: 1 }).toFormat("yyyyLLdd") : compactUtc(end),
    dur: firstDay ? "allday" : null,
    desc: details,
    in_loc: location,
  });
  return {
    google,
    yahoo,
    outlook: `https://outlook.live.com/calendar/0/deeplink/compose${outlookQuery}`,
    office365: `https://outlook.office.com/calendar/0/deeplink/compose${outlookQuery}`,
    ics: new URL("event.ics", eventUrl).href,
  };
}

/**
 * The links with the event's calendar file inline (EVENT_ICS=inline): the same
 * bytes as its event.ics, as a `data:text/calendar` URL, so the site needs no
 * file per event. Base64 keeps the CRLF line ends exact and the URL a third
 * longer than the file. Browsers download it under `download`'s name; a CSP
 * governs what a page loads, not where a link goes, so no policy changes.
 */
export function withInlineIcs(links: AddToCalendarLinks, ics: string): AddToCalendarLinks {
  return { ...links, ics: icsDataUrl(ics), download: "event.ics" };
}

/** An event's calendar file as a data: URL (the event page's and the event card's inline link). */
export function icsDataUrl(ics: string): string {
  return `data:text/calendar;charset=utf-8;base64,${Buffer.from(ics, "utf8").toString("base64")}`;
}

/** "2026-03-29T08:00:00Z" -> "20260329T080000Z", Google's form (fractions of a second dropped). */
function compactUtc(iso: string): string {
  return `${iso.slice(0, 19).replace(/[-:]/g, "")}Z`;
}

/** encodeURIComponent, not URLSearchParams: Outlook shows "+" literally. */
function query(base: string, params: Record<string, string | null>): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "")
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
  return `${base}?${pairs.join("&")}`;
}

function truncate(text: string): string {
  const chars = Array.from(text);
  return chars.length <= MAX_DETAILS ? text : `${chars.slice(0, MAX_DETAILS - 1).join("")}…`;
}
