import type { Calendar, CalendarEvent } from "../../src/model/types.ts";
import type { NewEvent } from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";

/*
 * Events written for one test, with nothing but what the test is about: an
 * evening in Amsterdam, scheduled, with no description, place, image or
 * organizer unless `fields` says otherwise.
 */

/** The fields every event must be given; the others are optional. */
type Named<T extends NewEvent | CalendarEvent> = Pick<
  T,
  "id" | "calendarId" | "title" | "start" | "end"
> &
  Partial<T>;

/** An event as the reference portal takes it (`addEvent`, or a dataset with a revision and stamps added). */
export function portalEvent(fields: Named<NewEvent>): NewEvent {
  const { id, calendarId, title, start, end, ...rest } = fields;
  return {
    id,
    calendarId,
    title,
    start,
    end,
    allDay: false,
    timeZone: "Europe/Amsterdam",
    status: "scheduled",
    summary: "",
    description: "",
    location: null,
    onlineUrl: null,
    attendanceMode: "offline",
    image: null,
    categories: [],
    organizer: null,
    registrationUrl: null,
    ...rest,
  };
}

/** An event as the build publishes it (the model's CalendarEvent), at its first revision. */
export function calendarEvent(fields: Named<CalendarEvent>): CalendarEvent {
  return {
    summary: "",
    descriptionHtml: "",
    descriptionText: "",
    allDay: false,
    timeZone: "Europe/Amsterdam",
    status: "scheduled",
    attendanceMode: "offline",
    location: null,
    onlineUrl: null,
    image: null,
    categories: [],
    organizer: null,
    registrationUrl: null,
    createdAt: null,
    updatedAt: null,
    sequence: 1,
    ...fields,
  };
}

/** A calendar as the build publishes it: in Amsterdam, with no description or colour. */
export function calendarOf(id: string, name = id): Calendar {
  return {
    id,
    name,
    description: "",
    timeZone: "Europe/Amsterdam",
    color: null,
    updatedAt: null,
  };
}

/**
 * The event as the build publishes one that got a new date at `at` (NOW by
 * default): it started at `previousStart` before, and carries the badge.
 */
export function withNewDate(event: CalendarEvent, previousStart: string, at = NOW): CalendarEvent {
  return {
    ...event,
    history: {
      uid: null,
      previousStarts: [previousStart],
      rescheduledAt: at,
      newDate: true,
      removed: null,
    },
  };
}

/**
 * The copy of `event` the build keeps in its old calendar once it moved to
 * calendar `calendarId`: cancelled there, and saying where it went.
 */
export function movedTo(
  event: CalendarEvent,
  calendarId: string,
  calendarName: string,
): CalendarEvent {
  return {
    ...event,
    status: "cancelled",
    history: {
      uid: null,
      previousStarts: [],
      rescheduledAt: null,
      newDate: false,
      removed: { kind: "moved", calendarId, calendarName },
    },
  };
}
