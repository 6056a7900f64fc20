/*
 * Runs inside /embed/{calendar}/, /embed/_all/ (several calendars) and an
 * event's card. A list page arrives with the default list rendered at build
 * time (it works with scripts off); this script applies the options in the
 * page URL (docs/widget.md) and, when they change what is shown, re-renders
 * from the public events.json of each calendar shown. A card is complete as
 * built: the script only applies its look and reports its height. Portal
 * text is only ever written with textContent, and option values are only
 * ever compared against allowlists, so nothing from a URL or the portal can
 * become markup. The page's messages to the page that frames it (its
 * height, WordPress's protocol) are frame.ts's, beside this script.
 */
import { DAY_MS, dayKey, dayKeyMs, msDayKey } from "../../browser/day-key.ts";
import { el } from "../../browser/el.ts";
import { fill } from "../../browser/fill.ts";
import { formatter } from "../../browser/formatter.ts";
import { lastInstant } from "../../browser/last-instant.ts";
import { chosenLanguage, pageInLanguage } from "../../browser/site-language.ts";
import { readsDifferently } from "../../browser/wall-clock.ts";
import { visitorZone, zoneAbbreviation, zoneCity } from "../../browser/zones.ts";
import type { PublicEvent } from "../../outputs/public-json-types.ts";
import type { WidgetConfig } from "../widget-config.ts";

/** A calendar of a page of several calendars, from its legend. */
interface Source {
  readonly segment: string;
  readonly name: string;
  readonly eventsUrl: string;
}

/** A date or time as the list shows it, with its value for <time datetime>. */
interface WhenPart {
  readonly datetime: string;
  readonly text: string;
}

/** The range of a "when" JSON file (docs/public-json.md): the events of one day's view. */
interface WhenRange {
  readonly validFrom: string;
  readonly validUntil: string;
  readonly events: unknown;
  readonly next: unknown;
}

// The build writes the labels and the options' rules in its place (src/widget/assets.ts).
declare const WIDGET_CONFIG: WidgetConfig;
const CONFIG = WIDGET_CONFIG;

const root = document.getElementById("ecp");
if (root && !inOtherLanguage()) startWidget(root);

/**
 * A site in several languages: the `lang` option shows the same page of
 * that language's site, with its texts and data (an unknown or unbuilt
 * one, the root's). True when the page is being replaced by it.
 */
function inOtherLanguage(): boolean {
  const languages = CONFIG.languages;
  if (!languages) return false;
  const language = chosenLanguage(languages, new URLSearchParams(location.search).get("lang"));
  if (language === languages.current) return false;
  const page = pageInLanguage(languages, new URL(location.href), language);
  if (!page) return false;
  location.replace(page.href);
  return true;
}

function startWidget(root: HTMLElement): void {
  const data = root.dataset;
  const defaults = CONFIG.defaults;
  const params = new URLSearchParams(location.search);
  const pageLang = data.lang || "en";
  // The portal's language, where it differs from the page's (the build writes it).
  const contentLang = data.contentLang || "";
  const now = Date.now();
  // An event's card: nothing to load or render, only look and height.
  const isCard = data.kind === "event";
  /*
   * The calendars a page of several calendars offers, from its legend (the
   * build wrote them): the allowlist `calendars` is compared with. A page of
   * one calendar has none and reads data-events-url instead.
   */
  const sources: Source[] = [];
  for (const item of root.querySelectorAll(".ecp-legend [data-calendar]")) {
    if (!(item instanceof HTMLElement)) continue;
    const segment = item.dataset.calendar || "";
    if (/^[a-z0-9_-]{1,80}$/.test(segment) && item.dataset.eventsUrl) {
      sources.push({ segment, name: item.textContent || "", eventsUrl: item.dataset.eventsUrl });
    }
  }
  const multi = sources.length > 0;

  const choice = (name: string, allowed: readonly string[], fallback: string) => {
    const value = (params.get(name) || "").toLowerCase();
    return allowed.includes(value) ? value : fallback;
  };
  const flag = (name: string, fallback: boolean) => {
    const value = (params.get(name) || "").toLowerCase();
    if (value === "true" || value === "1" || value === "yes") return true;
    if (value === "false" || value === "0" || value === "no") return false;
    return fallback;
  };
  const rawCount = params.get("count") || "";
  const count = /^[0-9]{1,3}$/.test(rawCount) ? Number(rawCount) : 0;
  const rawAccent = params.get("accent") || "";
  const rawCategory = params.get("category") || "";
  const rawQuery = (params.get("q") || "").trim();
  const rawCalendars = params.get("calendars") || "";
  const wanted = rawCalendars.length <= 2000 ? rawCalendars.toLowerCase().split(",") : [];
  // Unknown ids are ignored; none known leaves every calendar.
  const chosen = sources.filter((source) => wanted.includes(source.segment));

  const opts = {
    count: count >= 1 && count <= CONFIG.maxCount ? count : defaults.count,
    view: choice("view", ["list", "month"], defaults.view),
    category: rawCategory.length <= 200 ? rawCategory : "",
    words: rawQuery.length <= CONFIG.maxQuery ? searchWords(rawQuery) : [],
    theme: choice("theme", ["light", "dark", "auto"], defaults.theme),
    accent: /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(rawAccent) ? rawAccent : "",
    // A site in several languages shows its own (inOtherLanguage); one in one, any labels.
    lang: CONFIG.languages ? pageLang : choice("lang", Object.keys(CONFIG.labels), pageLang),
    compact: flag("compact", defaults.compact),
    showTitle: flag("showTitle", defaults.showTitle),
    tz: choice("tz", ["both", "event", "local"], defaults.tz),
    // today, tomorrow, weekend, week, next-week, month: the site's "when" pages (src/site/when).
    when: choice("when", Object.keys(CONFIG.labels.en.when), ""),
    calendars: chosen.length ? chosen : sources,
  };
  /** Which calendar each loaded event belongs to, on a page of several. */
  const sourceOf = new Map<PublicEvent, Source>();
  const L = CONFIG.labels[opts.lang] || CONFIG.labels.en;
  // The site's own locale (say en-US) while the page keeps the site's language.
  const ownLocale = opts.lang === pageLang && !!data.locale;
  const locale = ownLocale && data.locale ? data.locale : L.locale;
  // The ISO weekday (1 Monday ... 7 Sunday) the locale's weeks start on, as the build read it.
  const pageFirstDay = Number(data.firstDay);
  const firstDay = ownLocale && pageFirstDay >= 1 && pageFirstDay <= 7 ? pageFirstDay : L.firstDay;

  function applyLook(): void {
    root.classList.remove("ecp--light");
    root.classList.add(`ecp--${opts.theme}`);
    if (opts.compact) root.classList.add("ecp--compact");
    // CSSOM writes are allowed under `style-src 'self'`; style attributes are not.
    const accent = opts.accent || data.color || "";
    if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(accent))
      root.style.setProperty("--ecp-accent", accent);
    const head = root.querySelector(".ecp-head");
    if (head instanceof HTMLElement) head.hidden = !opts.showTitle;
    for (const item of root.querySelectorAll(".ecp-legend [data-calendar]")) {
      if (item instanceof HTMLElement) item.hidden = !isShown(item.dataset.calendar);
    }
  }

  /** Whether the options show a calendar (by its segment). */
  function isShown(segment: string | undefined): boolean {
    return opts.calendars.some((source) => source.segment === segment);
  }

  /** With `when`: the first scheduled event after the range, for the empty state. */
  let whenNext: PublicEvent | null = null;

  function load(): Promise<void> {
    if (multi) return loadCalendars();
    const url = data.eventsUrl;
    if (!url) return Promise.resolve();
    // The calendar's "when" JSON sits beside its events.json (docs/public-json.md).
    const source = opts.when
      ? new URL(`when/${opts.when}.json`, new URL(url, location.href)).href
      : url;
    return fetch(source, { credentials: "omit" })
      .then((response) => (response.ok ? response.json() : null))
      .then((doc) => {
        if (!(doc && doc.version === 1 && Array.isArray(doc.events))) return;
        const events: PublicEvent[] = doc.events;
        if (!opts.when) return render(events);
        // The build's day or the next, whichever the visitor's clock is in.
        const ranges: WhenRange[] = Array.isArray(doc.ranges) ? doc.ranges : [];
        const range =
          ranges.find((r) => now >= Date.parse(r.validFrom) && now < Date.parse(r.validUntil)) ||
          (ranges[0] && now < Date.parse(ranges[0].validFrom) ? ranges[0] : null);
        if (!range) {
          // Not rebuilt for days: the upcoming events are still right.
          opts.when = "";
          return load();
        }
        const at = (i: unknown) => (typeof i === "number" ? events[i] || null : null);
        whenNext = at(range.next);
        render(
          (Array.isArray(range.events) ? range.events : [])
            .map(at)
            .filter((event): event is PublicEvent => Boolean(event)),
        );
      })
      .catch(() => {
        // Offline or blocked: the build-time list stays, which is a fine fallback.
      });
  }

  /**
   * A page of several calendars reads each chosen calendar's events.json
   * (the files the one-calendar widget reads: no site-wide file) and merges
   * them in the site's order: by start, then calendar id, then event id.
   */
  function loadCalendars(): Promise<void> {
    return Promise.all(opts.calendars.map((source) => fetchEvents(source.eventsUrl))).then(
      (lists) => {
        if (lists.some((events) => !events)) {
          // One failed: the build-time list stays, without the calendars left out.
          for (const item of root.querySelectorAll(".ecp-list > [data-calendar]")) {
            if (!isShown(item.getAttribute("data-calendar") || "")) item.remove();
          }
          return;
        }
        const merged: PublicEvent[] = [];
        lists.forEach((events, index) => {
          const source = opts.calendars[index];
          for (const event of events || []) {
            if (source) sourceOf.set(event, source);
            merged.push(event);
          }
        });
        merged.sort(
          (a, b) =>
            Date.parse(a.start) - Date.parse(b.start) ||
            order(a.calendarId, b.calendarId) ||
            order(a.id, b.id),
        );
        render(merged);
      },
    );
  }

  function render(events: readonly PublicEvent[]): void {
    document.documentElement.lang = locale;
    // Right to left for Arabic and the other right-to-left languages; the labels say which.
    document.documentElement.dir = L.dir;
    const known = events.some((e) => e.categories.some((c) => c.id === opts.category));
    const inCategory = known
      ? events.filter((e) => e.categories.some((c) => c.id === opts.category))
      : events;
    const shown = opts.words.length
      ? inCategory.filter((e) => {
          const text = fold(
            [e.title, e.summary, placeText(e), ...e.categories.map((c) => c.name)].join(" "),
          );
          return opts.words.every((word) => text.includes(word));
        })
      : inCategory;
    relabel();
    const body = root.querySelector(".ecp-body");
    if (!body) return;
    body.replaceChildren(opts.view === "month" ? monthView(shown) : listView(shown));
  }

  function relabel(): void {
    for (const span of root.querySelectorAll(".ecp-head a .ecp-newtab, .ecp-foot a .ecp-newtab")) {
      span.textContent = ` ${L.newTab}`;
    }
    const calendars = root.querySelector("#ecp-calendars");
    if (calendars) calendars.textContent = L.calendars;
    const foot = root.querySelector(".ecp-foot a");
    if (foot?.firstChild) foot.firstChild.textContent = L.allEvents;
    if (opts.tz === "local") {
      const head = root.querySelector(".ecp-head");
      const note = el("p", "ecp-note", L.localTime);
      if (head && !head.querySelector(".ecp-note")) head.append(note);
    }
  }

  function listView(events: readonly PublicEvent[]): Node {
    // A "when" range lists its days' events, also those over by now, as the site's page does.
    const upcoming = (opts.when ? events : events.filter((e) => endMs(e) >= now)).slice(
      0,
      opts.count,
    );
    if (!upcoming.length) return opts.when ? whenEmpty() : el("p", "ecp-empty", L.empty);
    const heading = el("h2", "ecp-sr", whenLabels().name);
    heading.id = "ecp-upcoming";
    const list = el("ol", "ecp-list");
    for (const event of upcoming) list.append(listItem(event));
    const fragment = document.createDocumentFragment();
    fragment.append(heading, list);
    return fragment;
  }

  /** The list's heading and empty text: the `when` range's, or the upcoming list's. */
  function whenLabels(): { readonly name: string; readonly empty: string } {
    return (
      (opts.when && L.when[opts.when as keyof typeof L.when]) || {
        name: L.upcoming,
        empty: L.empty,
      }
    );
  }

  /** "Nothing today. Next: …", the next event named only when no filter could exclude it. */
  function whenEmpty(): HTMLElement {
    const empty = el("p", "ecp-empty", whenLabels().empty);
    if (whenNext && opts.category === "" && opts.words.length === 0) {
      const when = eventWhen(whenNext);
      empty.append(" ", L.whenNext, " ", eventLink(whenNext, "ecp-next", false), ", ");
      empty.append(timeEl(when.start));
    }
    return empty;
  }

  function listItem(event: PublicEvent): HTMLLIElement {
    const item = el(
      "li",
      `ecp-event${event.status === "cancelled" ? " ecp-event--cancelled" : ""}`,
    );
    item.append(eventLink(event, "ecp-link", false));
    const whenP = el("p", "ecp-when");
    const when = eventWhen(event);
    whenP.append(timeEl(when.start));
    if (when.end) whenP.append(" – ", timeEl(when.end));
    if (when.zone) whenP.append(" ", el("span", "ecp-zone", when.zone));
    if (!event.allDay) whenP.dataset.zone = event.timeZone;
    item.append(whenP);
    addLocalTime(whenP);
    const where = placeText(event);
    // "Online" beside a place is the page's own word: only a place alone is the portal's text.
    if (where) item.append(portalText("p", "ecp-where", where, event.attendanceMode === "offline"));
    const source = sourceOf.get(event);
    if (source) {
      mark(item, source);
      item.append(portalText("p", "ecp-cal", source.name));
    }
    return item;
  }

  function eventLink(event: PublicEvent, className: string, withTime: boolean): HTMLAnchorElement {
    const link = el("a", className);
    link.href = safeUrl(event.url);
    link.target = "_blank";
    link.rel = "noopener";
    if (withTime && !event.allDay) {
      link.append(
        timeEl({ datetime: event.start, text: format(new Date(event.start), zoneOf(event), TIME) }),
        " ",
      );
    }
    link.append(portalText("span", "ecp-name", event.title, !event.translated?.includes("title")));
    if (event.status === "cancelled")
      link.append(" ", el("span", "ecp-badge ecp-badge--cancelled", L.cancelled));
    if (event.status === "postponed") link.append(" ", el("span", "ecp-badge", L.postponed));
    // `newDate` arrived in the public JSON later: absent means no badge.
    if (event.newDate === true && event.status !== "cancelled")
      link.append(" ", el("span", "ecp-badge ecp-badge--new-date", L.newDate));
    link.append(el("span", "ecp-sr ecp-newtab", ` ${L.newTab}`));
    return link;
  }

  /* Dates and times: the same Intl options as src/widget/event-when.ts. */
  const TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };

  function format(
    date: Date,
    timeZone: string | undefined,
    options: Intl.DateTimeFormatOptions,
  ): string {
    return formatter(locale, timeZone, options).format(date);
  }

  /** All-day events are dates, the same everywhere; timed ones follow the tz option. */
  function zoneOf(event: PublicEvent): string | undefined {
    return event.allDay || opts.tz !== "local" ? event.timeZone : undefined;
  }

  /*
   * tz=both: the visitor's own time on a line of its own, where their clock
   * reads the event's time differently ("Sun 5 Apr, 03:00 – 05:00 your time
   * (Tokyo)"), and the event's zone named beside its time. Nothing is added
   * for a visitor whose clock reads the same. Reads the <time datetime>
   * values and the zone the list already carries (build-time or re-rendered).
   */
  const visitor = visitorZone();

  function addLocalTime(whenP: Element): void {
    const zone = whenP instanceof HTMLElement ? whenP.dataset.zone : "";
    const times = whenP.querySelectorAll("time");
    if (opts.tz !== "both" || !zone || zone === visitor || !times[0]) return;
    const start = new Date(times[0].getAttribute("datetime") || "");
    const end = new Date(times[1]?.getAttribute("datetime") || start.toISOString());
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return;
    try {
      if (!readsDifferently([start, end], zone, visitor)) return;
      const date = (d: Date) =>
        format(d, visitor, { weekday: "short", day: "numeric", month: "short" });
      let text = `${date(start)}, ${format(start, visitor, TIME)}`;
      if (end > start) {
        const sameDay = dayKey(start, visitor) === dayKey(end, visitor);
        text += ` – ${sameDay ? "" : `${date(end)}, `}${format(end, visitor, TIME)}`;
      }
      whenP.append(" ", el("span", "ecp-zone", fill(L.inZone, { zone: cityOf(zone) })));
      whenP.after(el("p", "ecp-local", fill(L.yourTime, { time: text, zone: cityOf(visitor) })));
    } catch {
      // A zone this browser does not know: the event's own time stands alone.
    }
  }

  function eventWhen(event: PublicEvent): {
    start: WhenPart;
    end: WhenPart | null;
    zone: string;
  } {
    const zone = zoneOf(event);
    const start = new Date(event.start);
    const thisYear = dayKey(new Date(now), zone).slice(0, 4);
    const date = (d: Date) =>
      format(d, zone, {
        weekday: "short",
        day: "numeric",
        month: "short",
        ...(dayKey(d, zone).slice(0, 4) === thisYear ? {} : { year: "numeric" }),
      });
    if (event.allDay) {
      const last = eventLastInstant(event);
      const first = dayKey(start, zone);
      const lastDay = dayKey(last, zone);
      return {
        start: { datetime: first, text: date(start) },
        end: lastDay > first ? { datetime: lastDay, text: date(last) } : null,
        zone: "",
      };
    }
    const end = new Date(event.end);
    const startPart = {
      datetime: event.start,
      text: `${date(start)}, ${format(start, zone, TIME)}`,
    };
    let endPart: WhenPart | null = null;
    if (end > start) {
      const sameDay = dayKey(start, zone) === dayKey(end, zone);
      endPart = {
        datetime: event.end,
        text: sameDay ? format(end, zone, TIME) : `${date(end)}, ${format(end, zone, TIME)}`,
      };
    }
    const zoneName = zone && zone !== data.zone ? zoneAbbreviation(zone, locale, start) : "";
    return { start: startPart, end: endPart, zone: zoneName };
  }

  /**
   * Portal text in an element of its own whose direction follows its first
   * letter (HTML's dir="auto"): a Latin title in an Arabic widget, or an
   * Arabic one in an English widget, reads in its own direction.
   */
  function portalText<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    className: string,
    text: string,
    inPortalLanguage = true,
  ): HTMLElementTagNameMap[K] {
    const node = el(tag, className, text);
    node.dir = "auto";
    // In the portal's language where the page's differs (a site in several languages).
    if (contentLang && inPortalLanguage) node.lang = contentLang;
    return node;
  }

  function placeText(event: PublicEvent): string {
    const loc = event.location;
    const town = loc?.address?.locality || "";
    let place = loc?.name || loc?.address?.formatted || "";
    if (loc?.name && town && !loc.name.includes(town)) place = `${loc.name}, ${town}`;
    if (event.attendanceMode === "offline") return place;
    return place ? `${place} · ${L.online}` : L.online;
  }

  /* Month view: a table with one row per week (from the locale's first day), navigable by buttons. */

  function monthView(events: readonly PublicEvent[]): HTMLElement {
    const byDay = new Map<string, PublicEvent[]>();
    for (const event of events) {
      const zone = zoneOf(event);
      let day = dayKeyMs(dayKey(new Date(event.start), zone));
      const last = dayKeyMs(dayKey(eventLastInstant(event), zone));
      // Bounded: a long exhibition shows on its first 62 days only.
      for (let i = 0; day <= last && i < 62; i++, day += DAY_MS) {
        const key = msDayKey(day);
        const list = byDay.get(key);
        if (list) list.push(event);
        else byDay.set(key, [event]);
      }
    }
    const today = dayKey(new Date(now), opts.tz === "local" ? undefined : data.zone);
    const months = [...byDay.keys(), today].map((k) => k.slice(0, 7)).sort();
    const first = months[0] || today.slice(0, 7);
    const lastMonth = months[months.length - 1] || today.slice(0, 7);
    let month = today.slice(0, 7);

    const wrap = el("div", "ecp-month");
    const nav = el("div", "ecp-monthnav");
    const prev = button("‹", L.previousMonth);
    const next = button("›", L.nextMonth);
    const heading = el("h2", "ecp-monthname");
    heading.setAttribute("aria-live", "polite");
    nav.append(prev, heading, next);
    const holder = el("div", "ecp-gridwrap");
    wrap.append(nav, holder);

    const show = () => {
      const label = format(new Date(dayKeyMs(`${month}-01`)), "UTC", {
        month: "long",
        year: "numeric",
      });
      heading.textContent = label;
      // aria-disabled rather than disabled: a disabled button would drop the
      // keyboard focus of someone who just pressed it.
      prev.setAttribute("aria-disabled", String(month <= first));
      next.setAttribute("aria-disabled", String(month >= lastMonth));
      holder.replaceChildren(grid(month, label, byDay, today));
    };
    const step = (delta: number) => {
      if ((delta < 0 ? prev : next).getAttribute("aria-disabled") === "true") return;
      const d = new Date(dayKeyMs(`${month}-01`));
      d.setUTCMonth(d.getUTCMonth() + delta);
      month = msDayKey(d.getTime()).slice(0, 7);
      show();
    };
    prev.addEventListener("click", () => step(-1));
    next.addEventListener("click", () => step(1));
    show();
    return wrap;
  }

  function grid(
    month: string,
    label: string,
    byDay: ReadonlyMap<string, readonly PublicEvent[]>,
    today: string,
  ): HTMLTableElement {
    const table = el("table", "ecp-grid");
    table.append(el("caption", "ecp-sr", label));
    const headRow = el("tr", "");
    for (let i = 0; i < 7; i++) {
      // 1 January 2024 was a Monday (ISO weekday 1).
      const day = new Date(Date.UTC(2024, 0, 1 + ((firstDay - 1 + i) % 7)));
      const th = el("th", "");
      th.setAttribute("scope", "col");
      const short = el("span", "", format(day, "UTC", { weekday: "short" }));
      short.setAttribute("aria-hidden", "true");
      th.append(short, el("span", "ecp-sr", format(day, "UTC", { weekday: "long" })));
      headRow.append(th);
    }
    const thead = el("thead", "");
    thead.append(headRow);
    const tbody = el("tbody", "");
    const firstMs = dayKeyMs(`${month}-01`);
    // getUTCDay counts from Sunday (0); ISO weekdays from Monday (1) to Sunday (7).
    const lead = ((new Date(firstMs).getUTCDay() || 7) - firstDay + 7) % 7;
    let row = el("tr", "");
    for (let i = 0; i < lead; i++) row.append(el("td", "ecp-pad"));
    for (let ms = firstMs; msDayKey(ms).slice(0, 7) === month; ms += DAY_MS) {
      if (row.childElementCount === 7) {
        tbody.append(row);
        row = el("tr", "");
      }
      const key = msDayKey(ms);
      const cell = el("td", "ecp-day");
      if (key === today) cell.setAttribute("aria-current", "date");
      const num = el("span", "ecp-daynum", String(new Date(ms).getUTCDate()));
      cell.append(num);
      const events = byDay.get(key);
      if (events) {
        const list = el("ul", "ecp-dayevents");
        for (const event of events) {
          const li = el("li", event.status === "cancelled" ? "ecp-event--cancelled" : "");
          const link = eventLink(event, "ecp-daylink", true);
          const source = sourceOf.get(event);
          if (source) {
            mark(li, source);
            // The colour alone would not say which calendar: the name is read out.
            link.insertBefore(el("span", "ecp-sr", ` (${source.name})`), link.lastChild);
          }
          li.append(link);
          list.append(li);
        }
        cell.append(list);
      }
      row.append(cell);
    }
    while (row.childElementCount < 7) row.append(el("td", "ecp-pad"));
    tbody.append(row);
    table.append(thead, tbody);
    return table;
  }

  applyLook();
  // Re-render only when the options change what is shown, or when the first
  // listed event has ended since the build (the site rebuilds on a schedule).
  const stale = Boolean(data.freshUntil) && now > Date.parse(data.freshUntil || "");
  if (isCard) {
    ready();
  } else if (
    stale ||
    opts.calendars.length !== sources.length ||
    opts.count !== defaults.count ||
    opts.view !== "list" ||
    opts.category !== "" ||
    opts.words.length > 0 ||
    opts.tz === "local" ||
    opts.lang !== pageLang ||
    opts.when !== ""
  ) {
    load().then(ready);
  } else {
    // The build-time list, with the visitor's own time where it differs (tz=both).
    for (const whenP of root.querySelectorAll(".ecp-when")) addLocalTime(whenP);
    ready();
  }

  // A hook for the embedding page's tests and for styling: options applied.
  function ready(): void {
    data.state = "ready";
  }
}

/** Its calendar's colour (/assets/calendars.css) and segment. */
function mark(node: HTMLElement, source: Source): void {
  node.classList.add(`cal-${source.segment}`);
  node.dataset.calendar = source.segment;
}

function timeEl(part: WhenPart): HTMLTimeElement {
  const time = el("time", "", part.text);
  time.setAttribute("datetime", part.datetime);
  return time;
}

/** Code-unit order, as the site's (src/model/order.ts). */
function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A calendar's events, or null when they cannot be read. */
function fetchEvents(url: string): Promise<PublicEvent[] | null> {
  return fetch(url, { credentials: "omit" })
    .then((response) => (response.ok ? response.json() : null))
    .then((doc) => (doc && doc.version === 1 && Array.isArray(doc.events) ? doc.events : null))
    .catch(() => null);
}

/** "America/New_York" is "New York"; a zone without a city keeps its name. */
function cityOf(zone: string): string {
  return zoneCity(zone) ?? zone;
}

function endMs(event: PublicEvent): number {
  return Math.max(Date.parse(event.start), Date.parse(event.end));
}

function eventLastInstant(event: PublicEvent): Date {
  return lastInstant(new Date(event.start), new Date(event.end));
}

function button(text: string, label: string): HTMLButtonElement {
  const b = el("button", "ecp-navbutton", text);
  b.type = "button";
  b.setAttribute("aria-label", label);
  return b;
}

/** Lower case without accents, so "cafe" finds "Café". */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/** The words of `q`, folded; none for an empty value. */
function searchWords(query: string): string[] {
  return fold(query)
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 10);
}

/** Only the site's own http(s) links become hrefs. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : "#";
  } catch {
    return "#";
  }
}
