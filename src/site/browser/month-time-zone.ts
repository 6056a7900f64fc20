/*
 * A month grid in the visitor's own time zone, when asked (docs/site.md,
 * "Your own time"). The grid is built in the calendar's zone; to a visitor
 * whose clock reads its events' times differently, "Show in my time zone"
 * places each timed event on the visitor's own days, with their times, and
 * remembers the choice in the URL only (?tz=local), so a link or a reload
 * keeps it and nothing is stored. All-day events keep their dates. Events of
 * the days around the month ride in a hidden list (month.nearby) for those
 * whose zone moves them into it. Nothing from the portal is written as
 * markup: items are the page's own, moved and cloned, and texts are set with
 * textContent.
 */
import { addDays, dayKey } from "../../browser/day-key.ts";
import { fill } from "../../browser/fill.ts";
import { lastInstant } from "../../browser/last-instant.ts";
import { readsDifferently } from "../../browser/wall-clock.ts";
import { visitorZone } from "../../browser/zones.ts";
import { FORMATS, formatSpan, pageLang, zoneLabel } from "./page-times.ts";

const panel = document.querySelector("[data-month-tz]");
const table = document.querySelector("table.month-grid");

if (panel instanceof HTMLElement && table instanceof HTMLTableElement && table.tBodies[0]) {
  const zone = table.dataset.zone || "UTC";
  const visitor = visitorZone();
  const lang = pageLang();
  const nearby = document.querySelector("[data-month-nearby]");
  const built = table.tBodies[0].cloneNode(true) as HTMLTableSectionElement;
  const timesOf = (node: ParentNode | null) =>
    node ? [...node.querySelectorAll<HTMLTimeElement>("time[data-zone]")] : [];
  const instants = [...timesOf(table), ...timesOf(nearby)].flatMap((time) => [
    new Date(time.dateTime),
    new Date(time.dataset.end || ""),
  ]);
  const valid = instants.filter((date) => !Number.isNaN(date.getTime()));

  // Only a visitor whose clock reads these times differently is offered the choice.
  let differs = false;
  try {
    differs = readsDifferently(valid, zone, visitor);
  } catch {
    differs = false;
  }
  const button = panel.querySelector("button");
  const note = panel.querySelector<HTMLElement>(".month-tz-note");
  if (differs && button && note) {
    const monthLinks = [...document.querySelectorAll<HTMLAnchorElement>(".month-nav a[href]")].map(
      (link) => ({ link, href: link.getAttribute("href") || "" }),
    );

    /**
     * Moves every timed event to the cells of the days it occupies on the
     * visitor's clock, with the visitor's times; events that leave the month
     * are not shown (they are on the neighbouring month's page).
     */
    const placeInVisitorZone = (grid: HTMLTableSectionElement) => {
      const cells = new Map<string, HTMLTableCellElement>();
      for (const cell of grid.querySelectorAll("td")) {
        const day = cell.querySelector(".day-number time")?.getAttribute("datetime");
        if (day) cells.set(day, cell);
      }
      // Each timed event once (a multi-day one has an item per day), the grid's and those nearby.
      const events = new Map<string, HTMLLIElement>();
      const items = [
        ...grid.querySelectorAll("li"),
        ...(nearby ? [...nearby.querySelectorAll("li")].map((li) => li.cloneNode(true)) : []),
      ];
      for (const item of items) {
        if (!(item instanceof HTMLLIElement) || !item.querySelector("time[data-zone]")) continue;
        const key = item.querySelector("a")?.getAttribute("href") || "";
        if (!events.has(key)) events.set(key, item);
        item.remove();
      }
      for (const item of events.values()) {
        const time = item.querySelector<HTMLTimeElement>("time[data-zone]");
        if (!time) continue;
        const start = new Date(time.dateTime);
        const end = new Date(time.dataset.end || time.dateTime);
        if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
        const first = dayKey(start, visitor);
        const last = dayKey(lastInstant(start, end), visitor);
        time.textContent = formatSpan(
          lang,
          visitor,
          first === last ? FORMATS.time : FORMATS.dayMonthAndTime,
          start,
          end,
        );
        // Bounded: a long event shows on its first 62 days, as the widget does.
        for (let day = first, i = 0; day <= last && i < 62; day = addDays(day, 1), i++) {
          const cell = cells.get(day);
          if (!cell) continue;
          const copy = item.cloneNode(true) as HTMLLIElement;
          // The link names its day (those of the days around the month get one here).
          const label = cell.querySelector(".day-number .visually-hidden")?.textContent;
          let name = copy.querySelector(".day-name");
          if (!name) {
            name = document.createElement("span");
            name.className = "visually-hidden day-name";
            copy.querySelector("a")?.append(name);
          }
          if (label) name.textContent = label;
          listOf(cell).append(copy);
        }
      }
      for (const cell of cells.values()) order(cell);
    };

    const show = (local: boolean) => {
      button.setAttribute("aria-pressed", String(local));
      note.textContent = local
        ? fill(panel.dataset.labelNote || "{zone}", {
            zone: zoneLabel(visitor, lang, valid[0] || new Date()),
          })
        : "";
      const grid = built.cloneNode(true) as HTMLTableSectionElement;
      if (local) placeInVisitorZone(grid);
      table.tBodies[0]?.replaceWith(grid);
      // The choice follows the month links, and only them.
      for (const { link, href } of monthLinks) link.href = local ? withLocal(href) : href;
    };

    button.addEventListener("click", () => {
      const local = button.getAttribute("aria-pressed") !== "true";
      const url = new URL(location.href);
      if (local) url.searchParams.set("tz", "local");
      else url.searchParams.delete("tz");
      history.replaceState(null, "", url);
      show(local);
    });
    panel.hidden = false;
    if (new URLSearchParams(location.search).get("tz") === "local") show(true);
  }
}

/** The cell's list of events, made when it has none. */
function listOf(cell: HTMLTableCellElement): HTMLUListElement {
  let list = cell.querySelector("ul");
  if (!list) {
    list = document.createElement("ul");
    cell.append(list);
  }
  return list;
}

/** All-day events first, as built, then timed ones by start; empty cells lose their list. */
function order(cell: HTMLTableCellElement): void {
  const list = cell.querySelector("ul");
  const items = list ? [...list.children] : [];
  const startOf = (item: Element) => {
    const time = item.querySelector("time[data-zone]");
    return time ? Date.parse(time.getAttribute("datetime") || "") : Number.NEGATIVE_INFINITY;
  };
  items.sort((a, b) => startOf(a) - startOf(b));
  if (list && items.length) list.replaceChildren(...items);
  else list?.remove();
  cell.classList.toggle("has-events", items.length > 0);
}

/** A month link with ?tz=local. */
function withLocal(href: string): string {
  const url = new URL(href, location.href);
  url.searchParams.set("tz", "local");
  return url.pathname + url.search + url.hash;
}
