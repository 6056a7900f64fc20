// @ts-check
/*
 * The visitor's own time beside an event's (docs/site.md, "Your own time").
 * Pages show every time in the event's own zone, as built, without scripts;
 * this adds the visitor's time where it reads differently on their clock:
 * "20:00–22:00 in Amsterdam" and below it "14:00–16:00 your time (New York)".
 * A visitor whose clock reads the same gets nothing added, so nothing moves.
 * It reads the instants the page carries (<time datetime data-end data-zone
 * data-local>) and writes text with textContent only. The month grid's
 * "Show in my time zone" (month-time-zone.js) and the search results use the
 * same helpers.
 */

/** The visitor's zone (IANA), as their device sets it. */
export function visitorZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The page's language, for Intl (the site's SITE_LANG, e.g. en-GB). */
export function pageLang() {
  return document.documentElement.lang || "en";
}

/** @type {Map<string, Intl.DateTimeFormat>} */
const formats = new Map();

/**
 * Intl formats cost far more to make than to use: one per language, zone and options.
 * @param {string} lang @param {string} timeZone @param {Intl.DateTimeFormatOptions} options
 */
export function formatter(lang, timeZone, options) {
  const key = JSON.stringify([lang, timeZone, options]);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { ...options, timeZone });
    formats.set(key, format);
  }
  return format;
}

/** @type {Intl.DateTimeFormatOptions} */
const WALL = {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
};

/** "2026-04-04 20:00": what a clock in `timeZone` reads at that instant. @param {Date} date @param {string} timeZone */
export function wallClock(date, timeZone) {
  const parts = formatter("en-CA", timeZone, WALL).formatToParts(date);
  /** @param {string} type */
  const get = (type) => parts.find((p) => p.type === type)?.value || "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
}

/** "2026-04-04": the date at that instant in `timeZone`. @param {Date} date @param {string} timeZone */
export function localDate(date, timeZone) {
  return wallClock(date, timeZone).slice(0, 10);
}

/**
 * Whether any of the instants reads differently on the visitor's clock than in
 * `zone` (Amsterdam and Berlin read the same: nothing to add).
 * @param {Date[]} dates @param {string} zone @param {string} visitor
 */
export function readsDifferently(dates, zone, visitor) {
  if (zone === visitor) return false;
  return dates.some((date) => wallClock(date, zone) !== wallClock(date, visitor));
}

/**
 * A zone as a reader names it: its exemplar city ("America/New_York" is
 * "New York"), else Intl's short name for it ("UTC", "GMT+3").
 * @param {string} zone @param {string} lang @param {Date} at
 */
export function zoneLabel(zone, lang, at) {
  const city = /^(?!Etc\/)[A-Za-z]+\/(?:[A-Za-z_-]+\/)?([A-Za-z_-]+)$/.exec(zone)?.[1];
  if (city) return city.replace(/_/g, " ");
  const parts = formatter(lang, zone, { timeZoneName: "short" }).formatToParts(at);
  return parts.find((p) => p.type === "timeZoneName")?.value || zone;
}

/* The site's own formats (src/site/format.ts), so an added time reads like the built one. */
/** @type {Intl.DateTimeFormatOptions} */
const TIME = { hour: "2-digit", minute: "2-digit" };
/** @type {Record<string, Intl.DateTimeFormatOptions>} */
export const FORMATS = {
  time: TIME,
  dayAndTime: { weekday: "short", day: "numeric", month: "short", ...TIME },
  dayMonthAndTime: { day: "numeric", month: "short", ...TIME },
  when: { weekday: "long", day: "numeric", month: "long", year: "numeric", ...TIME },
};

/**
 * One time, or a range, in a zone. @param {string} lang @param {string} timeZone
 * @param {Intl.DateTimeFormatOptions} options @param {Date} start @param {Date} end
 */
export function formatSpan(lang, timeZone, options, start, end) {
  const format = formatter(lang, timeZone, options);
  return end > start ? format.formatRange(start, end) : format.format(start);
}

/** The last instant inside an event; ends are exclusive. @param {Date} start @param {Date} end */
export function lastInstant(start, end) {
  return end > start ? new Date(end.getTime() - 1) : start;
}

/** A label with {name} placeholders filled. @param {string} text @param {Record<string, string>} values */
export function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

/**
 * Adds the visitor's time beside every event time under `root` that their
 * clock reads differently. `data-local="range"` is a list row's time of day
 * (the day is added when it is another one for the visitor); "when" is an
 * event page's whole date and time. Elements done once are not done again.
 * @param {ParentNode} root
 */
export function addLocalTimes(root) {
  const labels = document.body?.dataset ?? {};
  const yourTime = labels.labelYourTime || "{time} ({zone})";
  const inZone = labels.labelEventZone || "{zone}";
  const visitor = visitorZone();
  const lang = pageLang();
  for (const time of root.querySelectorAll("time[data-zone][data-local]")) {
    if (!(time instanceof HTMLTimeElement) || "localAdded" in time.dataset) continue;
    const zone = time.dataset.zone || "";
    const start = new Date(time.dateTime);
    const end = new Date(time.dataset.end || time.dateTime);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
    try {
      if (!readsDifferently([start, end], zone, visitor)) continue;
      const kind = time.dataset.local;
      let options = FORMATS.when;
      if (kind === "range") {
        const last = lastInstant(start, end);
        const sameDay =
          localDate(start, visitor) === localDate(start, zone) &&
          localDate(last, visitor) === localDate(start, visitor);
        options = sameDay ? FORMATS.time : FORMATS.dayAndTime;
        time.after(span("event-zone", ` ${fill(inZone, { zone: zoneLabel(zone, lang, start) })}`));
      }
      const text = fill(yourTime, {
        time: formatSpan(lang, visitor, options, start, end),
        zone: zoneLabel(visitor, lang, start),
      });
      time.parentElement?.append(span("local-time", text));
      time.dataset.localAdded = "";
    } catch {
      // A zone this browser does not know: the event's own time stands alone.
    }
  }
}

/** @param {string} className @param {string} text */
function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

addLocalTimes(document);
