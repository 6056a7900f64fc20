// @ts-check
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
import {
  FORMATS,
  fill,
  formatSpan,
  lastInstant,
  localDate,
  pageLang,
  readsDifferently,
  visitorZone,
  zoneLabel,
} from "./local-time.js";

const panel = document.querySelector("[data-month-tz]");
const table = document.querySelector("table.month-grid");
const DAY = 86_400_000;

if (panel instanceof HTMLElement && table instanceof HTMLTableElement && table.tBodies[0]) {
  const zone = table.dataset.zone || "UTC";
  const visitor = visitorZone();
  const lang = pageLang();
  const nearby = document.querySelector("[data-month-nearby]");
  const built = /** @type {HTMLTableSectionElement} */ (table.tBodies[0].cloneNode(true));
  const timesOf = (/** @type {ParentNode | null} */ node) =>
    node ? [...node.querySelectorAll("time[data-zone]")] : [];
  const instants = [...timesOf(table), ...timesOf(nearby)].flatMap((time) => [
    new Date(/** @type {HTMLTimeElement} */ (time).dateTime),
    new Date(/** @type {HTMLElement} */ (time).dataset.end || ""),
  ]);
  const valid = instants.filter((date) => !Number.isNaN(date.getTime()));

  // Only a visitor whose clock reads these times differently is offered the choice.
  let differs = false;
  try {
    differs = readsDifferently(valid, zone, visitor);
  } catch {
    differs = false;
  }
  if (differs) {
    const button = /** @type {HTMLButtonElement} */ (panel.querySelector("button"));
    const note = /** @type {HTMLElement} */ (panel.querySelector(".month-tz-note"));
    const monthLinks = [...document.querySelectorAll(".month-nav a[href]")].map((link) => ({
      link: /** @type {HTMLAnchorElement} */ (link),
      href: link.getAttribute("href") || "",
    }));

    /** @param {boolean} local */
    const show = (local) => {
      button.setAttribute("aria-pressed", String(local));
      note.textContent = local
        ? fill(panel.dataset.labelNote || "{zone}", {
            zone: zoneLabel(visitor, lang, valid[0] || new Date()),
          })
        : "";
      const grid = /** @type {HTMLTableSectionElement} */ (built.cloneNode(true));
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

    /**
     * Moves every timed event to the cells of the days it occupies on the
     * visitor's clock, with the visitor's times; events that leave the month
     * are not shown (they are on the neighbouring month's page).
     * @param {HTMLTableSectionElement} grid
     */
    function placeInVisitorZone(grid) {
      /** @type {Map<string, HTMLTableCellElement>} */
      const cells = new Map();
      for (const cell of grid.querySelectorAll("td")) {
        const day = cell.querySelector(".day-number time")?.getAttribute("datetime");
        if (day) cells.set(day, cell);
      }
      // Each timed event once (a multi-day one has an item per day), the grid's and those nearby.
      /** @type {Map<string, HTMLLIElement>} */
      const events = new Map();
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
        const time = /** @type {HTMLTimeElement} */ (item.querySelector("time[data-zone]"));
        const start = new Date(time.dateTime);
        const end = new Date(time.dataset.end || time.dateTime);
        if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
        const first = localDate(start, visitor);
        const last = localDate(lastInstant(start, end), visitor);
        time.textContent = formatSpan(
          lang,
          visitor,
          first === last ? FORMATS.time : FORMATS.dayMonthAndTime,
          start,
          end,
        );
        // Bounded: a long event shows on its first 62 days, as the widget does.
        for (let day = first, i = 0; day <= last && i < 62; day = nextDay(day), i++) {
          const cell = cells.get(day);
          if (!cell) continue;
          const copy = /** @type {HTMLLIElement} */ (item.cloneNode(true));
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
    }
  }
}

/** The cell's list of events, made when it has none. @param {HTMLTableCellElement} cell */
function listOf(cell) {
  let list = cell.querySelector("ul");
  if (!list) {
    list = document.createElement("ul");
    cell.append(list);
  }
  return list;
}

/** All-day events first, as built, then timed ones by start; empty cells lose their list. @param {HTMLTableCellElement} cell */
function order(cell) {
  const list = cell.querySelector("ul");
  const items = list ? [...list.children] : [];
  const startOf = (/** @type {Element} */ item) => {
    const time = item.querySelector("time[data-zone]");
    return time ? Date.parse(time.getAttribute("datetime") || "") : Number.NEGATIVE_INFINITY;
  };
  items.sort((a, b) => startOf(a) - startOf(b));
  if (list && items.length) list.replaceChildren(...items);
  else list?.remove();
  cell.classList.toggle("has-events", items.length > 0);
}

/** @param {string} day "yyyy-mm-dd" */
function nextDay(day) {
  const ms = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) + DAY;
  return new Date(ms).toISOString().slice(0, 10);
}

/** A month link with ?tz=local. @param {string} href */
function withLocal(href) {
  const url = new URL(href, location.href);
  url.searchParams.set("tz", "local");
  return url.pathname + url.search + url.hash;
}
