import ICAL from "ical.js";
import ical from "node-ical";

/*
 * Calendar files read back by two independent parsers, ical.js and node-ical,
 * the way calendar apps read them. (Python's icalendar is in python-readers.ts.)
 */

/** A calendar file as ical.js reads it, with its own VTIMEZONEs registered first. */
export function icalJsCalendar(text: string): ICAL.Component {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  return calendar;
}

/** Every VEVENT of a calendar file, as ical.js reads it. */
export function icalJsEvents(text: string): ICAL.Event[] {
  return icalJsCalendar(text)
    .getAllSubcomponents("vevent")
    .map((component) => new ICAL.Event(component));
}

/** Every VEVENT of a calendar file, as node-ical reads it. */
export function nodeIcalEvents(text: string): ical.VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter(
    (component): component is ical.VEvent => component?.type === "VEVENT",
  );
}

/** Content lines with folding undone (RFC 5545 section 3.1). */
export function unfoldedLines(text: string): string[] {
  return text.replace(/\r\n[ \t]/g, "").split("\r\n");
}
