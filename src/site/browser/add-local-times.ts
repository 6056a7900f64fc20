import { dayKey } from "../../browser/day-key.ts";
import { el } from "../../browser/el.ts";
import { fill } from "../../browser/fill.ts";
import { lastInstant } from "../../browser/last-instant.ts";
import { readsDifferently } from "../../browser/wall-clock.ts";
import { visitorZone } from "../../browser/zones.ts";
import { FORMATS, formatSpan, pageLang, zoneLabel } from "./page-times.ts";

/**
 * Adds the visitor's time beside every event time under `root` that their
 * clock reads differently (docs/site.md, "Your own time"). It reads the
 * instants the page carries (<time datetime data-end data-zone data-local>)
 * and writes text with textContent only. `data-local="range"` is a list
 * row's time of day (the day is added when it is another one for the
 * visitor); "when" is an event page's whole date and time. Elements done
 * once are not done again.
 */
export function addLocalTimes(root: ParentNode): void {
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
      let options: Intl.DateTimeFormatOptions = FORMATS.when;
      if (kind === "range") {
        const last = lastInstant(start, end);
        const sameDay =
          dayKey(start, visitor) === dayKey(start, zone) &&
          dayKey(last, visitor) === dayKey(start, visitor);
        options = sameDay ? FORMATS.time : FORMATS.dayAndTime;
        time.after(
          el("span", "event-zone", ` ${fill(inZone, { zone: zoneLabel(zone, lang, start) })}`),
        );
      }
      const text = fill(yourTime, {
        time: formatSpan(lang, visitor, options, start, end),
        zone: zoneLabel(visitor, lang, start),
      });
      time.parentElement?.append(el("span", "local-time", text));
      time.dataset.localAdded = "";
    } catch {
      // A zone this browser does not know: the event's own time stands alone.
    }
  }
}
