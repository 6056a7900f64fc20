// @ts-check
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
 * height, WordPress's protocol) are frame.js's, beside this script.
 */
(() => {
  /**
   * @typedef {{ id: string, name: string }} Category
   * @typedef {{ id: string, title: string, start: string, end: string, allDay: boolean,
   *   timeZone: string, status: string, attendanceMode: string, url: string, newDate?: boolean,
   *   location: null | { name: string | null, address: null | { locality: string | null, formatted: string } },
   *   summary: string, categories: Category[], calendarId: string }} PublicEvent
   * @typedef {{ segment: string, name: string, eventsUrl: string }} Source
   * @typedef {{ locale: string, upcoming: string, empty: string, allEvents: string,
   *   cancelled: string, postponed: string, newDate: string, online: string, newTab: string, previousMonth: string,
   *   nextMonth: string, localTime: string, yourTime: string, inZone: string, eventsOf: string,
   *   when: Record<string, { name: string, empty: string }>, whenNext: string, addToCalendar: string,
   *   calendars: string }} Labels
   * @typedef {{ labels: { en: Labels } & Record<string, Labels>, defaults: { count: number, view: string, theme: string,
   *   compact: boolean, showTitle: boolean, tz: string }, maxCount: number, maxQuery: number }} WidgetConfig
   */

  // Inlined at build time from src/widget/labels.ts and src/widget/options.ts.
  const CONFIG = /** @type {WidgetConfig} */ (/*@CONFIG*/ {});

  const root = document.getElementById("ecp");
  if (!root) return;
  const data = root.dataset;
  const defaults = CONFIG.defaults;
  const params = new URLSearchParams(location.search);
  const pageLang = data.lang || "en";
  const now = Date.now();
  // An event's card: nothing to load or render, only look and height.
  const isCard = data.kind === "event";
  /*
   * The calendars a page of several calendars offers, from its legend (the
   * build wrote them): the allowlist `calendars` is compared with. A page of
   * one calendar has none and reads data-events-url instead.
   */
  /** @type {Source[]} */
  const sources = [];
  for (const item of root.querySelectorAll(".ecp-legend [data-calendar]")) {
    if (!(item instanceof HTMLElement)) continue;
    const segment = item.dataset.calendar || "";
    if (/^[a-z0-9_-]{1,80}$/.test(segment) && item.dataset.eventsUrl) {
      sources.push({ segment, name: item.textContent || "", eventsUrl: item.dataset.eventsUrl });
    }
  }
  const multi = sources.length > 0;

  /** @param {string} name @param {readonly string[]} allowed @param {string} fallback */
  const choice = (name, allowed, fallback) => {
    const value = (params.get(name) || "").toLowerCase();
    return allowed.includes(value) ? value : fallback;
  };
  /** @param {string} name @param {boolean} fallback */
  const flag = (name, fallback) => {
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
    lang: choice("lang", Object.keys(CONFIG.labels), pageLang),
    compact: flag("compact", defaults.compact),
    showTitle: flag("showTitle", defaults.showTitle),
    tz: choice("tz", ["both", "event", "local"], defaults.tz),
    // today, tomorrow, weekend, week, next-week, month: the site's "when" pages (src/site/when).
    when: choice("when", Object.keys(CONFIG.labels.en.when), ""),
    calendars: chosen.length ? chosen : sources,
  };
  /** Which calendar each loaded event belongs to, on a page of several. @type {Map<PublicEvent, Source>} */
  const sourceOf = new Map();
  const L = CONFIG.labels[opts.lang] || CONFIG.labels.en;
  // The site's own locale (say en-US) while the page keeps the site's language.
  const locale = opts.lang === pageLang && data.locale ? data.locale : L.locale;

  function applyLook() {
    if (!root) return;
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

  /** Whether the options show a calendar (by its segment). @param {string | undefined} segment */
  function isShown(segment) {
    return opts.calendars.some((source) => source.segment === segment);
  }

  /** With `when`: the first scheduled event after the range, for the empty state. @type {PublicEvent | null} */
  let whenNext = null;

  /** @returns {Promise<void>} */
  function load() {
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
        if (!opts.when) return render(doc.events);
        // The build's day or the next, whichever the visitor's clock is in.
        /** @type {{ validFrom: string, validUntil: string, events: unknown, next: unknown }[]} */
        const ranges = Array.isArray(doc.ranges) ? doc.ranges : [];
        const range =
          ranges.find((r) => now >= Date.parse(r.validFrom) && now < Date.parse(r.validUntil)) ||
          (ranges[0] && now < Date.parse(ranges[0].validFrom) ? ranges[0] : null);
        if (!range) {
          // Not rebuilt for days: the upcoming events are still right.
          opts.when = "";
          return load();
        }
        /** @param {unknown} i */
        const at = (i) => (typeof i === "number" ? doc.events[i] || null : null);
        whenNext = at(range.next);
        render((Array.isArray(range.events) ? range.events : []).map(at).filter(Boolean));
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
  function loadCalendars() {
    return Promise.all(opts.calendars.map((source) => fetchEvents(source.eventsUrl))).then(
      (lists) => {
        if (lists.some((events) => !events)) {
          // One failed: the build-time list stays, without the calendars left out.
          for (const item of root?.querySelectorAll(".ecp-list > [data-calendar]") || []) {
            if (!isShown(item.getAttribute("data-calendar") || "")) item.remove();
          }
          return;
        }
        /** @type {PublicEvent[]} */
        const merged = [];
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

  /** Code-unit order, as the site's (src/model/order.ts). @param {string} a @param {string} b */
  function order(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** A calendar's events, or null when they cannot be read. @param {string} url @returns {Promise<PublicEvent[] | null>} */
  function fetchEvents(url) {
    return fetch(url, { credentials: "omit" })
      .then((response) => (response.ok ? response.json() : null))
      .then((doc) => (doc && doc.version === 1 && Array.isArray(doc.events) ? doc.events : null))
      .catch(() => null);
  }

  /** @param {PublicEvent[]} events */
  function render(events) {
    if (!root) return;
    document.documentElement.lang = locale;
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

  function relabel() {
    if (!root) return;
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

  /** @param {PublicEvent[]} events */
  function listView(events) {
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
  function whenLabels() {
    return (opts.when && L.when[opts.when]) || { name: L.upcoming, empty: L.empty };
  }

  /** "Nothing today. Next: …", the next event named only when no filter could exclude it. */
  function whenEmpty() {
    const empty = el("p", "ecp-empty", whenLabels().empty);
    if (whenNext && opts.category === "" && opts.words.length === 0) {
      const when = eventWhen(whenNext);
      empty.append(" ", L.whenNext, " ", eventLink(whenNext, "ecp-next", false), ", ");
      empty.append(timeEl(when.start));
    }
    return empty;
  }

  /** @param {PublicEvent} event */
  function listItem(event) {
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
    if (where) item.append(el("p", "ecp-where", where));
    const source = sourceOf.get(event);
    if (source) {
      mark(item, source);
      item.append(el("p", "ecp-cal", source.name));
    }
    return item;
  }

  /** Its calendar's colour (/assets/calendars.css) and segment. @param {HTMLElement} node @param {Source} source */
  function mark(node, source) {
    node.classList.add(`cal-${source.segment}`);
    node.dataset.calendar = source.segment;
  }

  /** @param {PublicEvent} event @param {string} className @param {boolean} withTime */
  function eventLink(event, className, withTime) {
    const link = /** @type {HTMLAnchorElement} */ (el("a", className));
    link.href = safeUrl(event.url);
    link.target = "_blank";
    link.rel = "noopener";
    if (withTime && !event.allDay) {
      link.append(
        timeEl({ datetime: event.start, text: format(new Date(event.start), zoneOf(event), TIME) }),
        " ",
      );
    }
    link.append(el("span", "ecp-name", event.title));
    if (event.status === "cancelled")
      link.append(" ", el("span", "ecp-badge ecp-badge--cancelled", L.cancelled));
    if (event.status === "postponed") link.append(" ", el("span", "ecp-badge", L.postponed));
    // `newDate` arrived in the public JSON later: absent means no badge.
    if (event.newDate === true && event.status !== "cancelled")
      link.append(" ", el("span", "ecp-badge ecp-badge--new-date", L.newDate));
    link.append(el("span", "ecp-sr ecp-newtab", ` ${L.newTab}`));
    return link;
  }

  /** @param {{ datetime: string, text: string }} part */
  function timeEl(part) {
    const time = el("time", "", part.text);
    time.setAttribute("datetime", part.datetime);
    return time;
  }

  /* Dates and times: the same Intl options as src/widget/event-when.ts. */
  /** @type {Intl.DateTimeFormatOptions} */
  const TIME = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  /** @type {Map<string, Intl.DateTimeFormat>} */
  const formats = new Map();

  /** @param {Date} date @param {string | undefined} timeZone @param {Intl.DateTimeFormatOptions} options */
  function format(date, timeZone, options) {
    const key = JSON.stringify([timeZone, options]);
    let f = formats.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
      formats.set(key, f);
    }
    return f.format(date);
  }

  /** "YYYY-MM-DD" of an instant in a zone (undefined: the viewer's). @param {Date} date @param {string | undefined} timeZone */
  function ymd(date, timeZone) {
    const key = `ymd ${timeZone}`;
    let f = formats.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      });
      formats.set(key, f);
    }
    const parts = f.formatToParts(date);
    /** @param {string} type */
    const get = (type) => parts.find((p) => p.type === type)?.value || "";
    return `${get("year")}-${get("month")}-${get("day")}`;
  }

  /** All-day events are dates, the same everywhere; timed ones follow the tz option. @param {PublicEvent} event */
  function zoneOf(event) {
    return event.allDay || opts.tz !== "local" ? event.timeZone : undefined;
  }

  /*
   * tz=both: the visitor's own time on a line of its own, where their clock
   * reads the event's time differently ("Sun 5 Apr, 03:00 – 05:00 your time
   * (Tokyo)"), and the event's zone named beside its time. Nothing is added
   * for a visitor whose clock reads the same. Reads the <time datetime>
   * values and the zone the list already carries (build-time or re-rendered).
   */
  const visitor = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

  /** @param {Element} whenP */
  function addLocalTime(whenP) {
    const zone = whenP instanceof HTMLElement ? whenP.dataset.zone : "";
    const times = whenP.querySelectorAll("time");
    if (opts.tz !== "both" || !zone || zone === visitor || !times[0]) return;
    const start = new Date(times[0].getAttribute("datetime") || "");
    const end = new Date(times[1]?.getAttribute("datetime") || start.toISOString());
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return;
    try {
      const wall = (/** @type {Date} */ d, /** @type {string} */ z) =>
        `${ymd(d, z)} ${format(d, z, TIME)}`;
      if (wall(start, zone) === wall(start, visitor) && wall(end, zone) === wall(end, visitor))
        return;
      const date = (/** @type {Date} */ d) =>
        format(d, visitor, { weekday: "short", day: "numeric", month: "short" });
      let text = `${date(start)}, ${format(start, visitor, TIME)}`;
      if (end > start) {
        const sameDay = ymd(start, visitor) === ymd(end, visitor);
        text += ` – ${sameDay ? "" : `${date(end)}, `}${format(end, visitor, TIME)}`;
      }
      const fill = (/** @type {string} */ label, /** @type {Record<string, string>} */ values) =>
        label.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
      whenP.append(" ", el("span", "ecp-zone", fill(L.inZone, { zone: cityOf(zone) })));
      whenP.after(el("p", "ecp-local", fill(L.yourTime, { time: text, zone: cityOf(visitor) })));
    } catch {
      // A zone this browser does not know: the event's own time stands alone.
    }
  }

  /** "America/New_York" is "New York"; a zone without a city keeps its name. @param {string} zone */
  function cityOf(zone) {
    const city = /^(?!Etc\/)[A-Za-z]+\/(?:[A-Za-z_-]+\/)?([A-Za-z_-]+)$/.exec(zone)?.[1];
    return city ? city.replace(/_/g, " ") : zone;
  }

  /** @param {PublicEvent} event */
  function endMs(event) {
    return Math.max(Date.parse(event.start), Date.parse(event.end));
  }

  /** The last instant inside the event; ends are exclusive (RFC 5545 3.6.1). @param {PublicEvent} event */
  function lastInstant(event) {
    const start = Date.parse(event.start);
    const end = Date.parse(event.end);
    return new Date(end > start ? end - 1 : start);
  }

  /** @param {PublicEvent} event */
  function eventWhen(event) {
    const zone = zoneOf(event);
    const start = new Date(event.start);
    const thisYear = ymd(new Date(now), zone).slice(0, 4);
    /** @param {Date} d */
    const date = (d) =>
      format(d, zone, {
        weekday: "short",
        day: "numeric",
        month: "short",
        ...(ymd(d, zone).slice(0, 4) === thisYear ? {} : { year: "numeric" }),
      });
    if (event.allDay) {
      const last = lastInstant(event);
      const first = ymd(start, zone);
      const lastDay = ymd(last, zone);
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
    let endPart = null;
    if (end > start) {
      const sameDay = ymd(start, zone) === ymd(end, zone);
      endPart = {
        datetime: event.end,
        text: sameDay ? format(end, zone, TIME) : `${date(end)}, ${format(end, zone, TIME)}`,
      };
    }
    let zoneName = "";
    if (zone && zone !== data.zone) {
      const parts = new Intl.DateTimeFormat(locale, {
        timeZone: zone,
        timeZoneName: "short",
      }).formatToParts(start);
      zoneName = parts.find((p) => p.type === "timeZoneName")?.value || "";
    }
    return { start: startPart, end: endPart, zone: zoneName };
  }

  /** @param {PublicEvent} event */
  function placeText(event) {
    const loc = event.location;
    const town = loc?.address?.locality || "";
    let place = loc?.name || loc?.address?.formatted || "";
    if (loc?.name && town && !loc.name.includes(town)) place = `${loc.name}, ${town}`;
    if (event.attendanceMode === "offline") return place;
    return place ? `${place} · ${L.online}` : L.online;
  }

  /* Month view: a table with one row per week (Monday first), navigable by buttons. */

  /** @param {string} key "YYYY-MM-DD" */
  const keyMs = (key) =>
    Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)) - 1, Number(key.slice(8, 10)));
  /** @param {number} ms */
  const msKey = (ms) => new Date(ms).toISOString().slice(0, 10);
  const DAY = 86400000;

  /** @param {PublicEvent[]} events */
  function monthView(events) {
    /** @type {Map<string, PublicEvent[]>} */
    const byDay = new Map();
    for (const event of events) {
      const zone = zoneOf(event);
      let day = keyMs(ymd(new Date(event.start), zone));
      const last = keyMs(ymd(lastInstant(event), zone));
      // Bounded: a long exhibition shows on its first 62 days only.
      for (let i = 0; day <= last && i < 62; i++, day += DAY) {
        const key = msKey(day);
        const list = byDay.get(key);
        if (list) list.push(event);
        else byDay.set(key, [event]);
      }
    }
    const today = ymd(new Date(now), opts.tz === "local" ? undefined : data.zone);
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
      const label = format(new Date(keyMs(`${month}-01`)), "UTC", {
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
    /** @param {number} delta */
    const step = (delta) => {
      if ((delta < 0 ? prev : next).getAttribute("aria-disabled") === "true") return;
      const d = new Date(keyMs(`${month}-01`));
      d.setUTCMonth(d.getUTCMonth() + delta);
      month = msKey(d.getTime()).slice(0, 7);
      show();
    };
    prev.addEventListener("click", () => step(-1));
    next.addEventListener("click", () => step(1));
    show();
    return wrap;
  }

  /** @param {string} text @param {string} label */
  function button(text, label) {
    const b = /** @type {HTMLButtonElement} */ (el("button", "ecp-navbutton", text));
    b.type = "button";
    b.setAttribute("aria-label", label);
    return b;
  }

  /**
   * @param {string} month "YYYY-MM" @param {string} label
   * @param {Map<string, PublicEvent[]>} byDay @param {string} today
   */
  function grid(month, label, byDay, today) {
    const table = el("table", "ecp-grid");
    table.append(el("caption", "ecp-sr", label));
    const headRow = el("tr", "");
    for (let i = 0; i < 7; i++) {
      // 1 January 2024 was a Monday.
      const day = new Date(Date.UTC(2024, 0, 1 + i));
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
    const firstMs = keyMs(`${month}-01`);
    const lead = (new Date(firstMs).getUTCDay() + 6) % 7;
    let row = el("tr", "");
    for (let i = 0; i < lead; i++) row.append(el("td", "ecp-pad"));
    for (let ms = firstMs; msKey(ms).slice(0, 7) === month; ms += DAY) {
      if (row.childElementCount === 7) {
        tbody.append(row);
        row = el("tr", "");
      }
      const key = msKey(ms);
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

  /** Lower case without accents, so "cafe" finds "Café". @param {string} text */
  function fold(text) {
    return text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  }

  /** The words of `q`, folded; none for an empty value. @param {string} query */
  function searchWords(query) {
    return fold(query)
      .split(/[\s,]+/)
      .filter(Boolean)
      .slice(0, 10);
  }

  /** Only the site's own http(s) links become hrefs. @param {string} url */
  function safeUrl(url) {
    try {
      const parsed = new URL(url, location.href);
      return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : "#";
    } catch {
      return "#";
    }
  }

  /** @param {string} tag @param {string} className @param {string} [text] */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
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
  function ready() {
    data.state = "ready";
  }
})();
