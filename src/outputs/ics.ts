import ical, {
  ICalCalendarMethod,
  type ICalEventData,
  ICalEventStatus,
  type ICalLocation,
} from "ical-generator";
import type { DateTime } from "luxon";
import type { SiteConfig } from "../config/site.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import { count } from "../metrics.ts";
import { eventDigest } from "../model/event-digest.ts";
import { eventUid } from "../model/event-uid.ts";
import { instantDate } from "../model/offset-times.ts";
import type { PerEvent } from "../model/per-event.ts";
import type { CalendarEvent, EventStatus } from "../model/types.ts";
import { absoluteUrl, paths } from "../model/url-scheme.ts";
import { eventTextLabels, formatPlace, multiLine, singleLine, statusLabel } from "./event-text.ts";
import { imageMediaType, normalizeHttpUrl } from "./feeds-image-type.ts";
import {
  eventPageUrl,
  feedUrls,
  type ScopeFileOptions,
  type ScopeSite,
  scopeTitle,
} from "./feeds-urls.ts";
import {
  selectSubscriptionEvents,
  type TimedEvent,
  timedEvents,
  type Warn,
} from "./feeds-window.ts";
import { fitToBudget } from "./ics-budget.ts";
import {
  icsMultiLineText,
  icsParamText,
  icsSingleLineText,
  icsUri,
  joinIcsLines,
  unfoldIcs,
} from "./ics-lines.ts";
import { vtimezone } from "./ics-timezones.ts";
import type { VeventSize, VeventSizes } from "./vevent-sizes.ts";

/**
 * iCalendar writers (RFC 5545, with RFC 7986 properties):
 * - `renderCalendar`: a subscription (/calendar.ics and per calendar/category),
 *   and `calendarFile`, the same in pieces;
 * - `renderEventIcs`: a single-event download.
 *
 * Output depends only on the events and options: every date in a zone is a
 * Luxon DateTime with that zone (ical-generator formats plain Dates in the
 * host's zone where a zone applies), the UTC ones (DTSTAMP, CREATED,
 * LAST-MODIFIED) are Dates in a calendar without a zone, which it writes
 * from their UTC fields; DTSTAMP/LAST-MODIFIED come from the portal, never
 * from the clock, and events are sorted. Two builds of one snapshot give
 * the same bytes on any machine.
 */

/** Stable across builds and releases: clients may key behaviour on it. */
export const ICS_PRODID = "//Event Calendar Publisher//Events//EN";

/**
 * The settings the calendars read: SITE_URL's host qualifies every UID;
 * `icsMaxBytes` may be left out: no size budget.
 */
export type IcsSiteOptions = ScopeSite &
  Pick<SiteConfig, "cancelledGraceDays"> &
  Partial<Pick<SiteConfig, "icsMaxBytes">>;

export interface CalendarOptions extends ScopeFileOptions<IcsSiteOptions> {
  /** "#rrggbb" for Apple's X-APPLE-CALENDAR-COLOR, when the portal gives one. */
  readonly color?: string | null;
  /** VEVENTs a build shares between its calendar files (feed-scopes.ts); none: made for this file alone. */
  readonly vevents?: VeventMemo;
  /**
   * An event's VEVENT as its download was published (src/outputs/feed-files.ts),
   * when that download is kept: read rather than made again. None: made.
   */
  readonly published?: PublishedVevent;
  /** The VEVENTs' sizes kept between builds, for the size plan (vevent-sizes.ts); none: measured. */
  readonly sizes?: VeventSizes;
}

export interface EventIcsOptions {
  readonly site: Pick<IcsSiteOptions, "url" | "lang" | "title">;
  readonly dataUpdatedAt: string;
  readonly warn?: Warn;
  readonly vevents?: VeventMemo;
}

/** How a subscription was cut to fit its size budget (ics-budget.ts). */
export interface IcsTrim {
  readonly maxBytes: number;
  /** Size it would have had. */
  readonly fullBytes: number;
  /** Size as published (an upper bound). */
  readonly bytes: number;
  /** Events starting at or after this instant are left out (ISO 8601, UTC), if any future ones are. */
  readonly horizon: string | null;
  readonly droppedFuture: number;
  readonly droppedPast: number;
  readonly droppedCurrent: number;
  /** Descriptions shortened, of cancellations too. */
  readonly shortened: number;
  /** Cancellations left out, of events starting at or after `cancelledHorizon` (ISO 8601, UTC). */
  readonly droppedCancelledFuture: number;
  readonly cancelledHorizon: string | null;
  /** Cancellations left out, of events that ended at or before `cancelledPastUntil` (ISO 8601, UTC). */
  readonly droppedCancelledPast: number;
  readonly cancelledPastUntil: string | null;
  /** Cancellations of events under way, left out. */
  readonly droppedCancelledCurrent: number;
  /** Over the budget even with one event left: the budget is smaller than the header and that event. */
  readonly overBudget: boolean;
}

export interface CalendarPlan {
  readonly events: readonly PlannedEvent[];
  /** Null when the whole window fits the budget. */
  readonly trim: IcsTrim | null;
  /** The events of the window left out to fit the budget (none when it fits). */
  readonly dropped: readonly CalendarEvent[];
  /**
   * When the clock alone could cut the same events otherwise, besides an
   * event's end (ics-budget.ts, changesAtMs): a moment of the build's next
   * date change. Null: none.
   */
  readonly changesAt: number | null;
}

interface PlannedEvent {
  readonly timed: TimedEvent;
  /** Published with its description shortened to the summary and links. */
  readonly short: boolean;
}

/**
 * Which events a subscription carries, and how, within its size budget. A
 * build works each scope's out once (src/outputs/feed-scopes.ts) and shares
 * it between the file and the pages that say it was trimmed.
 */
export function planCalendar(
  events: readonly CalendarEvent[],
  options: CalendarOptions,
): CalendarPlan {
  return computePlan(events, options);
}

function computePlan(events: readonly CalendarEvent[], options: CalendarOptions): CalendarPlan {
  const { site } = options;
  const selected = selectSubscriptionEvents(timedEvents(events, options.warn), site);
  const full = selected.map((timed) => ({ timed, short: false }));
  const maxBytes = site.icsMaxBytes ?? null;
  if (maxBytes === null) return { events: full, trim: null, dropped: [], changesAt: null };
  const sizes = selected.map((timed) => veventSize(timed, options, false));
  const zones = new Set<string>();
  for (const [, zone] of sizes) if (zone) zones.add(zone);
  const fixedBytes = headBytes(options, [...zones]) + END_BYTES;
  const cut = fitToBudget({
    items: selected.map((timed, index) => ({
      startMs: timed.startMs,
      endMs: timed.endMs,
      bytes: sizes[index]?.[0] ?? 0,
      descriptionBytes: Buffer.byteLength(timed.event.descriptionText, "utf8"),
      cancelled: timed.event.status === "cancelled",
    })),
    fixedBytes,
    maxBytes,
    nowMs: site.now.toMillis(),
    shortBytes: (index) => {
      const timed = selected[index];
      return timed ? veventSize(timed, options, true)[0] : 0;
    },
  });
  if (!cut) return { events: full, trim: null, dropped: [], changesAt: null };
  return {
    events: full.flatMap((planned, index) =>
      cut.dropped[index] ? [] : [{ ...planned, short: cut.shortened[index] === true }],
    ),
    dropped: selected.flatMap((timed, index) => (cut.dropped[index] ? [timed.event] : [])),
    changesAt: cut.changesAtMs,
    trim: {
      maxBytes,
      fullBytes: cut.fullBytes,
      bytes: cut.bytes,
      horizon: isoOrNull(cut.horizonMs),
      droppedFuture: cut.droppedFuture,
      droppedPast: cut.droppedPast,
      droppedCurrent: cut.droppedCurrent,
      shortened: cut.shortenedCount,
      droppedCancelledFuture: cut.droppedCancelledFuture,
      cancelledHorizon: isoOrNull(cut.cancelledHorizonMs),
      droppedCancelledPast: cut.droppedCancelledPast,
      cancelledPastUntil: isoOrNull(cut.cancelledPastUntilMs),
      droppedCancelledCurrent: cut.droppedCancelledCurrent,
      overBudget: cut.overBudget,
    },
  };
}

/** A VEVENT's size and zone: kept from an earlier build when its inputs are the same, else measured. */
function veventSize(timed: TimedEvent, options: CalendarOptions, short: boolean): VeventSize {
  const measure = (): VeventSize => {
    const lines = veventLines(timed, options, short);
    return [lines.bytes, lines.zone];
  };
  if (!options.sizes) return measure();
  return options.sizes.get(timed.event, short, () => eventIcsInputs(timed.event, options), measure);
}

/**
 * The UTF-8 size of a scope's calendar head: kept from an earlier build when
 * what calendarHead reads is the same (ical-generator writing an event-less
 * calendar to measure it was a third of the size plans of a rebuild), else measured.
 */
function headBytes(options: CalendarOptions, zones: readonly string[]): number {
  const measure = () => Buffer.byteLength(calendarHead(options, zones), "utf8");
  if (!options.sizes) return measure();
  const { site } = options;
  const inputs = JSON.stringify([
    [site.url, site.title, site.description, site.refreshMinutes],
    options.scope,
    options.description ?? null,
    options.color ?? null,
    zones,
  ]);
  return options.sizes.head(inputs, measure);
}

/**
 * Everything a scope's calendar file depends on besides the code
 * (FileGroup.inputs), given its plan: the settings its head says, its
 * scope, name, description and colour, and each planned event whole, in
 * its form (full or short); when the data last changed only where a VEVENT
 * shows it (an event without a time of its own). The clock reaches the
 * file through the plan alone.
 */
export function calendarIcsInputs(options: CalendarOptions, plan: CalendarPlan): string {
  const { site } = options;
  const events = plan.events.map(({ timed }) => timed.event);
  return JSON.stringify([
    [site.url, site.lang, site.title, site.description, site.refreshMinutes],
    options.scope,
    options.description ?? null,
    options.color ?? null,
    events.some((event) => !ownTime(event)) ? options.dataUpdatedAt : null,
    plan.events.map(({ timed, short }) => [eventDigest(timed.event), short]),
  ]);
}

/** Whether the event itself says when it last changed (its DTSTAMP's source), worked out once. */
function ownTime(event: CalendarEvent): boolean {
  let known = ownTimes.get(event);
  if (known === undefined) {
    known = (instantDate(event.updatedAt) ?? instantDate(event.createdAt)) !== null;
    ownTimes.set(event, known);
  }
  return known;
}

const ownTimes = new WeakMap<CalendarEvent, boolean>();

const isoOrNull = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

const END_BYTES = Buffer.byteLength("END:VCALENDAR\r\n");

/** A subscription: its events as planned for its size budget (`plan`, planned here when not given). */
export function renderCalendar(
  events: readonly CalendarEvent[],
  options: CalendarOptions,
  plan: CalendarPlan = planCalendar(events, options),
): string {
  return calendarFile(events, options, plan).join("");
}

/**
 * The calendar's text as the build writes it: its head, each VEVENT and its
 * end, never made one text: V8 puts a text over 128 kB on pages fresh from
 * the system each time it is made (FileContent in src/render/disk-writes.ts).
 */
export function calendarFile(
  events: readonly CalendarEvent[],
  options: CalendarOptions,
  plan: CalendarPlan = planCalendar(events, options),
): readonly string[] {
  const vevents = plan.events.map(({ timed, short }) => veventLines(timed, options, short));
  const zones = [...new Set(vevents.map((vevent) => vevent.zone))].filter(
    (zone): zone is string => zone !== null,
  );
  return [
    calendarHead(options, zones),
    ...vevents.map((vevent) => vevent.text),
    "END:VCALENDAR\r\n",
  ];
}

/** The calendar's properties and the VTIMEZONE of each zone, folded, without END:VCALENDAR. */
function calendarHead(options: CalendarOptions, zones: readonly string[]): string {
  const { site, scope } = options;
  const urls = feedUrls(scope, site.url);
  const description = icsMultiLineText(options.description ?? site.description);
  const header = ical({
    prodId: ICS_PRODID,
    method: ICalCalendarMethod.PUBLISH,
    scale: "GREGORIAN",
    // NAME and X-WR-CALNAME (RFC 7986 5.1 and the de-facto name) and
    // X-WR-CALDESC: the package writes these unescaped, so they are escaped here.
    name: icsSingleLineText(scopeTitle(scope, site.title)),
    description,
    url: urls.page,
    source: urls.ics,
    // REFRESH-INTERVAL (RFC 7986 5.7) and X-PUBLISHED-TTL follow the rebuild schedule.
    ttl: site.refreshMinutes * 60,
    // No calendar zone: DTSTAMP/CREATED/LAST-MODIFIED stay UTC, each event
    // carries its own TZID. No X-WR-TIMEZONE either: nothing is floating.
    timezone: null,
  });
  if (options.color && /^#[0-9a-f]{6}$/i.test(options.color)) header.color(options.color);
  return headLines(header.toString(), [`DESCRIPTION:${description}`], zones);
}

/**
 * One event, for "add to calendar" downloads. No NAME/X-WR-CALNAME and no
 * REFRESH-INTERVAL: with them Outlook creates a new calendar instead of adding
 * the event to the user's own. The UID is the one the subscriptions use, so a
 * subscriber who also downloads the file gets an update, not a duplicate.
 */
export function renderEventIcs(event: CalendarEvent, options: EventIcsOptions): string {
  // The same header for every event: written by the package once per build.
  eventIcsHeader ??= ical({
    prodId: ICS_PRODID,
    method: ICalCalendarMethod.PUBLISH,
    scale: "GREGORIAN",
    timezone: null,
  }).toString();
  return assemble(eventIcsHeader, [], timedEvents([event], options.warn), options);
}

let eventIcsHeader: string | undefined;

/**
 * Everything an event's download depends on besides the code
 * (FileGroup.inputs): the site's address, language and title, the whole
 * event, and when the data last changed only where the file shows it (the
 * DTSTAMP of an event without a time of its own). Nothing in the file reads
 * the build's clock, so a download whose event did not change is kept.
 */
export function eventIcsInputs(event: CalendarEvent, options: EventIcsOptions): string {
  const { url, lang, title } = options.site;
  return JSON.stringify([
    url,
    lang,
    title,
    ownTime(event) ? null : options.dataUpdatedAt,
    eventDigest(event),
  ]);
}

interface EventContext {
  readonly site: Pick<IcsSiteOptions, "url" | "lang" | "title">;
  readonly dataUpdatedAt: string;
  readonly vevents?: VeventMemo;
  readonly published?: PublishedVevent;
}

/**
 * The published text of an event's download (`renderEventIcs`) when it was
 * rendered from the inputs it would have now (`eventIcsInputs`), else
 * undefined: its VEVENT is the full form every calendar file carries.
 */
export type PublishedVevent = (event: CalendarEvent) => Buffer | undefined;

/**
 * ical-generator writes the calendar properties (from an event-less calendar)
 * and each VEVENT; the VTIMEZONE blocks (RFC 5545 3.6.5: one per TZID used, in
 * order of first use) and the folding are done here. With the build's
 * memo (`vevents`), each event's lines are made once and reused by every file
 * that contains it.
 */
function assemble(
  header: string,
  headerExtras: readonly string[],
  events: readonly TimedEvent[],
  context: EventContext,
): string {
  const vevents = events.map((timed) => veventLines(timed, context, false));
  const zones = [...new Set(vevents.map((vevent) => vevent.zone))].filter(
    (zone): zone is string => zone !== null,
  );
  return `${headLines(header, headerExtras, zones)}${vevents.map((vevent) => vevent.text).join("")}END:VCALENDAR\r\n`;
}

/** Calendar properties (without END:VCALENDAR), extra lines and the zones' VTIMEZONEs, folded. */
function headLines(header: string, extras: readonly string[], zones: readonly string[]): string {
  const headerLines = unfoldIcs(header);
  const end = headerLines.pop();
  if (end !== "END:VCALENDAR") throw new Error("unexpected ical-generator output");
  return joinIcsLines([
    ...headerLines,
    ...extras,
    ...zones.flatMap((zone) => unfoldIcs(vtimezone(zone) ?? "")),
  ]);
}

export interface VeventLines {
  /** Folded content lines, each ended by CRLF. */
  readonly text: string;
  /** Its UTF-8 size: what the size budget counts. */
  readonly bytes: number;
  /** The TZID its DTSTART/DTEND use, if any. */
  readonly zone: string | null;
}

/** An event's VEVENT lines, by context and form: each event's are made once and shared by every file that contains it. */
export type VeventMemo = PerEvent<VeventLines>;

function veventLines(timed: TimedEvent, context: EventContext, short: boolean): VeventLines {
  const make = () =>
    (!short && publishedVeventLines(timed.event, context)) ||
    makeVeventLines(timed, context, short);
  if (!context.vevents) return make();
  const { url, lang, title } = context.site;
  const key = `${url}\n${lang}\n${title}\n${context.dataUpdatedAt}\n${short}`;
  return context.vevents.get(timed.event, key, make);
}

/**
 * The full VEVENT of an event whose download is kept, cut from that file's
 * bytes: an event whose download inputs did not change has the lines it was
 * published with (its sizes are kept on the same grounds, vevent-sizes.ts).
 * Read, not made: the day rolling over renders again the calendars whose
 * window moved, and made every VEVENT of theirs again (docs/performance.md,
 * What changed, item 90).
 */
function publishedVeventLines(event: CalendarEvent, context: EventContext): VeventLines | null {
  const bytes = context.published?.(event);
  if (!bytes) return null;
  // Whole lines (a line break before each): a download holds one VEVENT; anything else is made.
  const before = bytes.indexOf(VEVENT_BEGIN);
  if (before < 0) return null;
  const close = bytes.indexOf(VEVENT_END, before);
  if (close < 0 || bytes.indexOf(VEVENT_BEGIN, close) >= 0) return null;
  const [begin, end] = [before + 2, close + VEVENT_END.length];
  count("ics.veventsReadBack");
  return { text: bytes.toString("utf8", begin, end), bytes: end - begin, zone: veventZone(event) };
}

const VEVENT_BEGIN = "\r\nBEGIN:VEVENT\r\n";
const VEVENT_END = "\r\nEND:VEVENT\r\n";

/** The zone a VEVENT's DTSTART and DTEND name: an unknown zone gets UTC times rather than a TZID without VTIMEZONE. */
function veventZone(event: CalendarEvent): string | null {
  return !event.allDay && vtimezone(event.timeZone) ? event.timeZone : null;
}

function makeVeventLines(timed: TimedEvent, context: EventContext, short: boolean): VeventLines {
  // Counted: the size budget must not cost more VEVENTs (test/integration/ics-budget.test.ts).
  count("ics.vevents");
  const { data, extraLines } = veventData(timed, context, short);
  const lines = unfoldIcs(ical({ timezone: null }).createEvent(data).toString());
  const end = lines.pop();
  if (end !== "END:VEVENT") throw new Error("unexpected ical-generator output");
  const text = joinIcsLines([...lines, ...extraLines, end]);
  return { text, bytes: Buffer.byteLength(text, "utf8"), zone: data.timezone ?? null };
}

const STATUS: Readonly<Record<EventStatus, ICalEventStatus>> = {
  scheduled: ICalEventStatus.CONFIRMED,
  // RFC 5545 3.8.1.11: TENTATIVE is the closest to "date to be confirmed".
  postponed: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED,
};

function veventData(
  { event, times }: TimedEvent,
  context: EventContext,
  short: boolean,
): { data: ICalEventData; extraLines: string[] } {
  const { lang, url: siteUrl } = context.site;
  const pageUrl = eventPageUrl(siteUrl, event);
  const status = summaryLabel(event, lang);
  // Dates, not Luxon times: ical-generator writes a Date's UTC fields without Luxon's formatter.
  const modified =
    instantDate(event.updatedAt) ??
    instantDate(event.createdAt) ??
    instantDate(context.dataUpdatedAt);
  const created = instantDate(event.createdAt);
  const zone = veventZone(event);

  const data: ICalEventData = {
    // An event that moved to another calendar keeps the UID apps know it by.
    id: event.history?.uid ?? eventUid(event, siteUrl),
    sequence: Number.isSafeInteger(event.sequence) && event.sequence > 0 ? event.sequence : 0,
    stamp: modified ?? new Date(0),
    lastModified: modified,
    created,
    allDay: event.allDay,
    start: event.allDay ? times.start.startOf("day") : times.start,
    end: event.allDay ? allDayEnd(times.start, times.end) : times.end,
    timezone: zone,
    // Some clients (Outlook subscriptions) ignore STATUS; the title says it too.
    summary: singleLine(status ? `${status}: ${event.title}` : event.title),
    description: plainDescription(event, pageUrl, lang, short),
    location: location(event),
    categories: event.categories
      .map((category) => singleLine(category.name))
      .filter((name) => name !== "")
      .map((name) => ({ name })),
    status: STATUS[event.status] ?? ICalEventStatus.CONFIRMED,
    organizer: emailOrganizer(event),
  };

  const extraLines = [`URL;VALUE=URI:${pageUrl}`];
  if (!data.organizer) extraLines.push(uriOrganizerLine(event, context.site));
  const image = event.image ? icsUri(event.image.url) : null;
  if (image) {
    const type = imageMediaType(image);
    // RFC 7986 5.10 IMAGE; DISPLAY=BADGE is the default, stated for clarity.
    extraLines.push(`IMAGE;VALUE=URI;DISPLAY=BADGE${type ? `;FMTTYPE=${type}` : ""}:${image}`);
  }
  return { data, extraLines };
}

/** DATE values with an exclusive end of at least one day (RFC 5545 3.6.1). */
function allDayEnd(start: DateTime, end: DateTime): DateTime {
  const firstDay = start.startOf("day");
  let endDay = end.startOf("day");
  if (end > endDay) endDay = endDay.plus({ days: 1 });
  return endDay > firstDay ? endDay : firstDay.plus({ days: 1 });
}

/**
 * The SUMMARY prefix: the status word, or for an event that moved to another
 * calendar "Moved to <calendar>" (it is cancelled only in the calendar it left).
 */
function summaryLabel(event: CalendarEvent, lang: string): string | null {
  const removed = event.history?.removed;
  if (removed?.kind === "moved") {
    return translate(messagesFor(lang), "movedTo", { name: singleLine(removed.calendarName) });
  }
  return statusLabel(event.status, lang);
}

function plainDescription(
  event: CalendarEvent,
  pageUrl: string,
  lang: string,
  short: boolean,
): string {
  const labels = eventTextLabels(lang);
  const status = summaryLabel(event, lang);
  const onlineUrl = normalizeHttpUrl(event.onlineUrl);
  const registrationUrl = normalizeHttpUrl(event.registrationUrl);
  const parts = [
    status ? `${status}.` : "",
    event.summary,
    // Shortened to fit the size budget: the event page has the description.
    short ? "" : event.descriptionText,
    onlineUrl ? `${labels.online}: ${onlineUrl}` : "",
    registrationUrl ? `${labels.registration}: ${registrationUrl}` : "",
    `${labels.moreInfo}: ${pageUrl}`,
  ];
  // Cleaned, not escaped: ical-generator escapes DESCRIPTION itself.
  return parts
    .map(multiLine)
    .filter((part) => part !== "")
    .join("\n\n");
}

function location(event: CalendarEvent): ICalLocation | null {
  const place = formatPlace(event);
  const title = place ? singleLine(place) : (normalizeHttpUrl(event.onlineUrl) ?? "");
  const geo = event.location?.geo;
  const validGeo =
    geo && Number.isFinite(geo.lat) && Number.isFinite(geo.lon)
      ? { lat: geo.lat, lon: geo.lon }
      : null;
  if (title && validGeo) return { title, geo: validGeo };
  if (title) return { title };
  if (validGeo) return { geo: validGeo };
  return null;
}

const EMAIL = /^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+\.[^\s@<>"(),;:\\[\]]+$/;

/**
 * Every VEVENT names an ORGANIZER: RFC 5546 3.2.1 requires one in a
 * METHOD:PUBLISH object (libical's validator flags each event without), and
 * Outlook makes whoever opens an event without one its organizer. Its value
 * is a CAL-ADDRESS, a URI (RFC 5545 3.3.3): `mailto:` where the portal gives
 * the organizer's email (written by ical-generator, here), else a web
 * address (uriOrganizerLine). docs/feeds.md, "ORGANIZER", has the choice.
 */
function emailOrganizer(event: CalendarEvent): ICalEventData["organizer"] {
  const email = event.organizer?.email?.trim();
  if (!email || !EMAIL.test(email)) return null;
  return { name: icsParamText(event.organizer?.name ?? "") || email, email };
}

/**
 * The ORGANIZER of an event without the organizer's email: the organizer's
 * own web address where the portal gives one, else the site that publishes
 * the event (its title, its home page). Never an invented mailto: address,
 * which would invite replies that nobody reads.
 */
function uriOrganizerLine(event: CalendarEvent, site: Pick<IcsSiteOptions, "url" | "title">) {
  const own = icsUri(event.organizer?.url ?? "");
  const name = own ? icsParamText(event.organizer?.name ?? "") : "";
  const address = own ?? absoluteUrl(site.url, paths.home());
  return `ORGANIZER;CN="${name || icsParamText(site.title)}":${address}`;
}
