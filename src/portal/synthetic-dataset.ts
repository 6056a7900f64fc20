import { DateTime } from "luxon";
import { CATEGORIES, DEMO_ZONE, PLACES } from "./demo-content.ts";
import { createPrng } from "./prng.ts";
import type {
  DatasetCalendar,
  DatasetEvent,
  PortalDataset,
  WireAttendanceMode,
  WireLocation,
} from "./types.ts";
import { createLocalFormatter, formatUtc, parseInstant } from "./zoned-time.ts";

export interface SyntheticOptions {
  calendars: number;
  eventsPerCalendar: number;
  seed?: number;
  now?: Date | string;
}

const SYNTHETIC_ORGANIZATION = { id: "synthetic", name: "Synthetic Organization" };

const ADJECTIVES = ["Morning", "Evening", "Open", "Family", "Community", "Late", "Weekend", "City"];
const NOUNS = ["Concert", "Workshop", "Market", "Lecture", "Tour", "Meetup", "Screening", "Run"];
/** One shared single-category array per category, not one per event. */
const CATEGORY_SETS = Object.values(CATEGORIES).map((category) => [category]);
/** The demo's places with coordinates (a place added to the demo without any does not move every synthetic event). */
const PLACE_LIST: WireLocation[] = Object.values(PLACES).filter((place) => place.geo !== null);
/** Shared, so 100,000 events cost little more than their own dates and ids. */
const DESCRIPTIONS = NOUNS.map(
  (noun) =>
    `<p>A synthetic <strong>${noun.toLowerCase()}</strong> for load tests.</p><ul><li>Generated from a seed</li><li>Identical on every run</li></ul>`,
);
const SUMMARY = "Generated event for load tests and benchmarks.";
const DAY_MS = 86_400_000;
/**
 * A fifth of each calendar's events (its first ones, in whole series) are
 * weekly series of 8 dates: one title, place and start time, a week apart,
 * so places and series get pages and files as on a real site.
 */
const SERIES_SHARE = 0.2;
export const SERIES_LENGTH = 8;

/**
 * A large deterministic dataset: `calendars` x `eventsPerCalendar` events
 * between 60 days before and 180 days after `now`, in one organization, at
 * the demo's nine places; a fifth of them in weekly series (SERIES_SHARE).
 * Strings and nested records are shared between events and local times are
 * memoized per minute, so 100,000 events build in well under a second or two.
 */
export function createSyntheticDataset(options: SyntheticOptions): PortalDataset {
  const { calendars: calendarCount, eventsPerCalendar } = options;
  if (!Number.isInteger(calendarCount) || calendarCount < 1 || calendarCount > 1000) {
    throw new RangeError("synthetic calendars must be an integer from 1 to 1000");
  }
  if (!Number.isInteger(eventsPerCalendar) || eventsPerCalendar < 0 || eventsPerCalendar > 1e6) {
    throw new RangeError("synthetic events per calendar must be an integer from 0 to 1000000");
  }
  const prng = createPrng(options.seed ?? 1);
  const nowUtc = parseInstant(options.now ?? new Date());
  // Edited at the latest when the day began: two builds of one day see the same data.
  const editedByMs = nowUtc.setZone(DEMO_ZONE).startOf("day").toMillis();
  const firstDay = nowUtc.setZone(DEMO_ZONE).startOf("day").minus({ days: 60 });
  const days = Array.from({ length: 240 }, (_, i) => firstDay.plus({ days: i }).toISODate() ?? "");
  const local = createLocalFormatter(DEMO_ZONE);
  const calendarUpdated = formatUtc(firstDay.minus({ days: 30 }).set({ hour: 9 }));
  const calendars: DatasetCalendar[] = [];
  const events: DatasetEvent[] = [];
  for (let c = 1; c <= calendarCount; c++) {
    const calendarId = `cal-${String(c).padStart(3, "0")}`;
    calendars.push({
      id: calendarId,
      name: `Synthetic Calendar ${c}`,
      description: `Synthetic calendar ${c} with ${eventsPerCalendar} events.`,
      timeZone: DEMO_ZONE,
      color: `#${((c * 0x2f5b3d) & 0xffffff).toString(16).padStart(6, "0")}`,
      updatedAt: calendarUpdated,
      organizations: [SYNTHETIC_ORGANIZATION.id],
    });
    const seriesDates =
      Math.floor((eventsPerCalendar * SERIES_SHARE) / SERIES_LENGTH) * SERIES_LENGTH;
    let series: SeriesFirst | null = null;
    for (let e = 1; e <= eventsPerCalendar; e++) {
      // Every event draws the same numbers, in series or not, so the others stay as they were.
      let dayIndex = prng.int(0, days.length - 1);
      let allDay = prng.chance(0.05);
      let startMinute = prng.int(32, 84) * 15;
      let endMinute = Math.min(startMinute + prng.int(2, 16) * 15, 23 * 60 + 45);
      const roll = prng.next();
      const status = roll < 0.03 ? "cancelled" : roll < 0.05 ? "postponed" : "scheduled";
      let noun = prng.int(0, NOUNS.length - 1);
      const createdDrawMs = prng.int(1, 60) * DAY_MS;
      const revision = prng.int(1, 4);
      const updatedDraw = revision === 1 ? 0 : prng.next();
      let mode: WireAttendanceMode = prng.chance(0.1)
        ? "online"
        : prng.chance(0.1)
          ? "mixed"
          : "offline";
      const id = `${calendarId}-e${String(e).padStart(6, "0")}`;
      let title = `${prng.pick(ADJECTIVES)} ${NOUNS[noun]} #${e}`;
      let place = mode === "online" ? null : prng.pick(PLACE_LIST);
      const inSeries = e <= seriesDates;
      if (inSeries) {
        const index = (e - 1) % SERIES_LENGTH;
        // A series' first date draws its title, place and time; the others follow it weekly.
        if (index === 0 || !series) {
          series = {
            dayIndex: dayIndex % (days.length - 7 * (SERIES_LENGTH - 1)),
            startMinute,
            endMinute,
            noun,
            mode,
            place,
            title: `${title.replace(/ #\d+$/, "")} Series ${Math.floor((e - 1) / SERIES_LENGTH) + 1}`,
          };
        }
        dayIndex = series.dayIndex + 7 * index;
        allDay = false;
        ({ startMinute, endMinute, noun, mode, place, title } = series);
      }
      const date = days[dayIndex] ?? "";
      const createdMs = Math.min(editedByMs, +firstDay + dayIndex * DAY_MS) - createdDrawMs;
      const updatedMs =
        revision === 1 ? createdMs : createdMs + Math.floor(updatedDraw * (editedByMs - createdMs));
      events.push({
        id,
        calendarId,
        title,
        start: allDay ? date : local(date, hhmm(startMinute)),
        end: allDay ? (days[dayIndex + 1] ?? nextDate(date)) : local(date, hhmm(endMinute)),
        allDay,
        timeZone: DEMO_ZONE,
        status,
        revision,
        updatedAt: isoSeconds(updatedMs),
        summary: SUMMARY,
        description: DESCRIPTIONS[noun] ?? "",
        location: place,
        onlineUrl: mode === "offline" ? null : `https://meet.example.org/${id}`,
        attendanceMode: mode,
        image: null,
        categories: prng.pick(CATEGORY_SETS),
        organizer: null,
        registrationUrl: null,
        createdAt: isoSeconds(createdMs),
      });
    }
  }
  return { version: 1, organizations: [{ ...SYNTHETIC_ORGANIZATION }], calendars, events };
}

/** What a series' first date drew, which its other dates repeat. */
interface SeriesFirst {
  readonly dayIndex: number;
  readonly startMinute: number;
  readonly endMinute: number;
  readonly noun: number;
  readonly mode: WireAttendanceMode;
  readonly place: WireLocation | null;
  readonly title: string;
}

const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const isoSeconds = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const nextDate = (date: string): string =>
  DateTime.fromISO(date, { zone: DEMO_ZONE }).plus({ days: 1 }).toISODate() ?? "";

/** Parses "4x25000" (the --synthetic flag). */
export function parseSyntheticSpec(spec: string): { calendars: number; eventsPerCalendar: number } {
  const match = /^(\d{1,4})x(\d{1,7})$/.exec(spec.trim());
  if (!match) throw new RangeError(`--synthetic must look like 4x25000, got "${spec}"`);
  return { calendars: Number(match[1]), eventsPerCalendar: Number(match[2]) };
}
