/*
 * The visitor's own time beside an event's (docs/site.md, "Your own time"),
 * on every page. Pages show every time in the event's own zone, as built,
 * without scripts; this adds the visitor's time where it reads differently
 * on their clock: "20:00–22:00 in Amsterdam" and below it "14:00–16:00 your
 * time (New York)". A visitor whose clock reads the same gets nothing added,
 * so nothing moves. The month grid's "Show in my time zone"
 * (month-time-zone.ts) and the search results use the same helpers.
 */
import { addLocalTimes } from "./add-local-times.ts";

addLocalTimes(document);
