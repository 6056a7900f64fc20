/*
 * The search page (/search/). Its state is its URL: q, calendar, category,
 * place, when (today, weekend, week, month, range with from and to),
 * attendance (online, in-person), cancelled=hide and page. This script keeps
 * the form and the URL in step, asks the static Pagefind index in /pagefind/
 * (built from the snapshot in parts, src/search/, merged here), and shows
 * the results as the lists do: upcoming events first, by start, then past ones, most recent first.
 * It offers the subscription that holds exactly the filtered events, or says
 * which one is nearest (/search/subscriptions.json). Portal text is only ever
 * written with textContent.
 */
import { addDays, DAY_MS, dayKey, dayKeyMs, msDayKey } from "../../browser/day-key.ts";
import { el } from "../../browser/el.ts";
import { fill } from "../../browser/fill.ts";
import { pluralForms, pluralText } from "../../browser/plural.ts";
import type { SubscriptionEntry } from "../../outputs/subscriptions-json-types.ts";
import type { PartSummary } from "../../search/part-summary.ts";
import { addLocalTimes } from "./add-local-times.ts";

/** The form's fields that hold text or a choice of a list, as the URL does. */
const TEXT_FIELDS = [
  "q",
  "calendar",
  "organization",
  "category",
  "place",
  "when",
  "from",
  "to",
] as const;

interface State {
  q: string;
  calendar: string;
  /** A site of several sources: the organization (its source id). */
  organization: string;
  category: string;
  place: string;
  when: string;
  from: string;
  to: string;
  attendance: string;
  cancelled: string;
  page: number;
}

/** A result as Pagefind gives it: its record is read only for the results shown. */
interface Hit {
  readonly id: string;
  readonly score: number;
  data(): Promise<Result>;
}

interface Result {
  readonly url: string;
  readonly meta: Readonly<Record<string, string | undefined>>;
}

/** What of pagefind.js this page uses. */
interface Pagefind {
  options(options: { baseUrl: string; metaCacheTag: string }): Promise<void>;
  init(): Promise<void>;
  mergeIndex(path: string, options: { baseUrl: string; metaCacheTag: string }): Promise<void>;
  search(
    term: string | null,
    options: { filters: Record<string, unknown>; sort: Record<string, "asc" | "desc"> },
  ): Promise<{ results: Hit[] }>;
}

interface SearchIndex {
  readonly module: Pagefind;
  readonly parts: PartSummary[];
  readonly merged: Map<string, Promise<void>>;
}

const root = document.getElementById("search");
const form = document.getElementById("search-form");

if (root && form instanceof HTMLFormElement) startSearch(root, form);

function startSearch(root: HTMLElement, form: HTMLFormElement): void {
  const config = root.dataset;
  const perPage = Number(config.perPage) || 20;
  const zone = config.zone || "UTC";
  const searchPage = config.page || "/search/";
  const WHEN = ["today", "weekend", "week", "month", "range"];
  const ATTENDANCE = ["online", "in-person"];

  const $ = (id: string) => document.getElementById(id) as HTMLElement;
  const status = $("search-status");
  const results = $("search-results");
  const pager = $("search-pager");

  const lang = config.lang || "en";
  const numbers = new Intl.NumberFormat(lang);
  /** A label from the page, with {name} placeholders filled, numbers as the locale writes them. */
  const label = (key: string, values: Record<string, string | number> = {}) =>
    fill(
      config[key] || "",
      Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          typeof value === "number" ? numbers.format(value) : value,
        ]),
      ),
    );
  const resultsCount = pluralForms(config.labelCount);

  function stateFromUrl(): State {
    const params = new URLSearchParams(location.search);
    const get = (name: string) => (params.get(name) || "").trim().slice(0, 200);
    const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
    const page = Number(get("page"));
    return {
      q: get("q"),
      calendar: get("calendar"),
      organization: get("organization"),
      category: get("category"),
      place: get("place"),
      when: WHEN.includes(get("when")) ? get("when") : "",
      from: isDay(get("from")) ? get("from") : "",
      to: isDay(get("to")) ? get("to") : "",
      attendance: ATTENDANCE.includes(get("attendance")) ? get("attendance") : "",
      cancelled: get("cancelled") === "hide" ? "hide" : "",
      page: Number.isInteger(page) && page > 1 ? page : 1,
    };
  }

  function stateFromForm(): State {
    const data = new FormData(form);
    const get = (name: string) => String(data.get(name) || "").trim();
    return {
      ...stateFromUrl(),
      ...Object.fromEntries([...TEXT_FIELDS, "attendance", "cancelled"].map((n) => [n, get(n)])),
      page: 1,
    };
  }

  function urlOf(state: State): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(state)) {
      if (name === "page" ? value !== 1 : value !== "") params.set(name, String(value));
    }
    if (state.when !== "range") {
      params.delete("from");
      params.delete("to");
    }
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  }

  function fillForm(state: State): void {
    for (const name of TEXT_FIELDS) {
      const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (!field) continue;
      const value = state[name];
      field.value = String(value);
      // A value the page has no option for (an old link) shows as "all".
      if (field instanceof HTMLSelectElement && field.value !== value) field.value = "";
    }
    for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="attendance"]')) {
      radio.checked = radio.value === state.attendance;
    }
    const hide = form.querySelector<HTMLInputElement>('input[name="cancelled"]');
    if (hide) hide.checked = state.cancelled === "hide";
    const dates = form.querySelector("[data-range-fields]");
    if (dates instanceof HTMLElement) dates.hidden = state.when !== "range";
    const header = document.getElementById("site-search-q") as HTMLInputElement | null;
    if (header) header.value = state.q;
  }

  /* Days in the site's zone (SITE_TIMEZONE), the zone of the index's day filter. */
  const today = () => dayKey(new Date(), zone);

  /** The chosen window [first, last] (inclusive), or null for any date. */
  function dateWindow(state: State): [string, string] | null {
    const now = today();
    const weekday = new Date(dayKeyMs(now)).getUTCDay(); // 0 = Sunday
    if (state.when === "today") return [now, now];
    // The coming Saturday and Sunday; on a weekend, what is left of it.
    if (state.when === "weekend")
      return weekday === 0 ? [now, now] : [addDays(now, 6 - weekday), addDays(now, 7 - weekday)];
    if (state.when === "week") return [now, addDays(now, 6)];
    if (state.when === "month") {
      const next = new Date(dayKeyMs(now));
      next.setUTCMonth(next.getUTCMonth() + 1, 1);
      return [now, msDayKey(next.getTime() - DAY_MS)];
    }
    if (state.when === "range" && (state.from || state.to)) {
      const first = state.from || config.firstDay || now;
      const last = state.to || config.lastDay || now;
      return first <= last ? [first, last] : [last, first];
    }
    return null;
  }

  /** Every day from first to last that the index has events on (bounded by the index's own span). */
  function days(first: string, last: string): string[] {
    const from = config.firstDay && config.firstDay > first ? config.firstDay : first;
    const to = config.lastDay && config.lastDay < last ? config.lastDay : last;
    const list: string[] = [];
    for (let ms = dayKeyMs(from); ms <= dayKeyMs(to) && list.length < 4000; ms += DAY_MS)
      list.push(msDayKey(ms));
    return list;
  }

  /*
   * The index comes in parts, one Pagefind index per month of events
   * (src/search/search-parts.ts), listed in the site's order in parts.json.
   * pagefind.js opens the index with no pages beside it (which gives it its
   * worker and WebAssembly, fetched once) and merges the parts a search's
   * days can reach, each once; a part outside them cannot match and is not
   * loaded (docs/site.md, "Search and filters").
   */
  const partsUrl = new URL(config.parts || "/pagefind/parts.json", location.href);
  let pagefind: Promise<SearchIndex> | null = null;
  const loadIndex = () => {
    pagefind ??= Promise.all([
      import(config.index || "/pagefind/pagefind.js") as Promise<Pagefind>,
      // Always the current list: it tags the parts' entry files by what they are made from.
      fetch(partsUrl, { cache: "no-cache" }).then((response) => {
        if (!response.ok) throw new Error(`${partsUrl.pathname}: ${response.status}`);
        return response.json() as Promise<{ entry: string; parts?: unknown }>;
      }),
    ]).then(async ([module, list]) => {
      // Results are site paths; the site's folder (a path prefix, or "/") comes first.
      await module.options({ baseUrl: config.base || "/", metaCacheTag: list.entry });
      await module.init();
      return {
        module,
        parts: Array.isArray(list.parts) ? (list.parts as PartSummary[]) : [],
        merged: new Map(),
      };
    });
    return pagefind;
  };

  /** Merges the parts with events on any day from first to last (once each). */
  function mergeParts(index: SearchIndex, first: string, last: string): Promise<unknown> {
    const needed = index.parts.filter(
      (part) => part.records > 0 && part.firstDay <= last && part.lastDay >= first,
    );
    return Promise.all(
      needed.map((part) => {
        let merging = index.merged.get(part.key);
        if (!merging) {
          merging = index.module.mergeIndex(new URL(`${part.key}/`, partsUrl).pathname, {
            baseUrl: config.base || "/",
            metaCacheTag: part.entry,
          });
          index.merged.set(part.key, merging);
        }
        return merging;
      }),
    );
  }

  /**
   * Merged results in the site's order. Pagefind sorts within one index
   * only: a merged result's score is its place in its own part's order
   * (negative when ascending), and its id starts with its part's key. The
   * parts are consecutive runs of the order, so part first, then that place.
   * `direction` 1 is soonest first.
   */
  function inOrder(hits: readonly Hit[], parts: readonly PartSummary[], direction: 1 | -1): Hit[] {
    const rank = new Map(parts.map((part, i) => [part.key, i]));
    const partOf = (hit: Hit) => rank.get(hit.id.slice(0, hit.id.indexOf("_"))) ?? 0;
    return [...hits].sort((a, b) => direction * (partOf(a) - partOf(b)) || b.score - a.score);
  }

  let subscriptions: Promise<SubscriptionEntry[]> | null = null;
  const loadSubscriptions = () => {
    subscriptions ??= fetch(config.subscriptions || "/search/subscriptions.json")
      .then((response) => (response.ok ? response.json() : { subscriptions: [] }))
      .then((doc) => (Array.isArray(doc.subscriptions) ? doc.subscriptions : []));
    return subscriptions;
  };

  let run = 0;
  async function search(state: State, options: { focusResults?: boolean } = {}): Promise<void> {
    const mine = ++run;
    status.textContent = label("labelLoading");
    // What the status says, in any language, for scripts that wait on the page (and its tests).
    status.dataset.state = "loading";
    try {
      const index = await loadIndex();
      const filters: Record<string, unknown> = {};
      if (state.calendar) filters.calendar = state.calendar;
      if (state.organization) filters.organization = state.organization;
      if (state.category) filters.category = state.category;
      if (state.place) filters.place = state.place;
      if (state.attendance) filters.attendance = state.attendance;
      if (state.cancelled === "hide") filters.status = { none: ["cancelled"] };
      const now = today();
      const span = dateWindow(state) || [config.firstDay || now, config.lastDay || now];
      const upcomingDays = span[1] >= now ? days(span[0] > now ? span[0] : now, span[1]) : [];
      const pastDays =
        span[0] < now ? days(span[0], span[1] < now ? span[1] : addDays(now, -1)) : [];
      const term = state.q || null;
      const searched = [...pastDays, ...upcomingDays];
      if (searched.length) await mergeParts(index, searched[0] || "", searched.at(-1) || "");
      if (mine !== run) return;
      const [upcoming, past] = await Promise.all([
        upcomingDays.length
          ? index.module.search(term, {
              filters: { ...filters, day: { any: upcomingDays } },
              sort: { start: "asc" },
            })
          : { results: [] },
        pastDays.length
          ? index.module.search(term, {
              filters: { ...filters, day: { any: pastDays } },
              sort: { start: "desc" },
            })
          : { results: [] },
      ]);
      if (mine !== run) return;
      // An event on both sides of today (it started before and goes on) is upcoming.
      const upcomingIds = new Set(upcoming.results.map((hit) => hit.id));
      const hits = [
        ...inOrder(upcoming.results, index.parts, 1),
        ...inOrder(
          past.results.filter((hit) => !upcomingIds.has(hit.id)),
          index.parts,
          -1,
        ),
      ];
      const pageCount = Math.max(1, Math.ceil(hits.length / perPage));
      const page = Math.min(state.page, pageCount);
      const first = (page - 1) * perPage;
      const shown = await Promise.all(hits.slice(first, first + perPage).map((hit) => hit.data()));
      if (mine !== run) return;
      render(shown, first, upcomingIds.size);
      status.textContent =
        hits.length === 0 ? label("labelNone") : pluralText(resultsCount, hits.length, lang);
      renderPager(state, page, pageCount);
      status.dataset.state = "answered";
      if (options.focusResults) results.focus();
      await offerSubscription(state);
    } catch (error) {
      if (mine !== run) return;
      console.warn("Search failed:", error);
      status.textContent = label("labelError");
      status.dataset.state = "failed";
      results.replaceChildren();
      pager.hidden = true;
    }
  }

  /** Rows as the lists show them: a section per side of today, a heading per day. */
  function render(shown: readonly Result[], offset: number, upcomingCount: number): void {
    const fragment = document.createDocumentFragment();
    let section: HTMLElement | null = null;
    let list: HTMLElement | null = null;
    let side = "";
    let day = "";
    shown.forEach((result, i) => {
      const meta = result.meta;
      const thisSide = offset + i < upcomingCount ? "upcoming" : "past";
      if (thisSide !== side) {
        side = thisSide;
        day = "";
        section = el("section", "search-section");
        const heading = el("h2", "", label(side === "upcoming" ? "labelUpcoming" : "labelPast"));
        heading.id = `search-${side}`;
        section.setAttribute("aria-labelledby", heading.id);
        section.append(heading);
        fragment.append(section);
      }
      if (meta.day !== day) {
        day = meta.day || "";
        const group = el("div", "day");
        const heading = el("h3", "day-heading");
        const time = el("time", "", meta.dayLabel || day);
        time.setAttribute("datetime", day);
        heading.append(time);
        list = el("ul", "event-list");
        group.append(heading, list);
        section?.append(group);
      }
      list?.append(row(result));
    });
    results.replaceChildren(fragment);
    addLocalTimes(results);
  }

  function row(result: Result): HTMLLIElement {
    const meta = result.meta;
    const item = el(
      "li",
      `event-row${meta.status && meta.status !== "scheduled" ? ` is-${meta.status}` : ""}`,
    );
    const when = el("div", "event-time");
    if (meta.allDay === "true") {
      when.textContent = meta.time || "";
    } else if (meta.time) {
      const time = el("time", "", meta.time);
      time.setAttribute("datetime", meta.start || "");
      // The visitor's own time is added beside it where it differs (add-local-times.ts).
      if (meta.end && meta.zone) {
        time.dataset.end = meta.end;
        time.dataset.zone = meta.zone;
        time.dataset.local = "range";
      }
      when.append(time);
    }
    const body = el("div", "event-body");
    const title = el("h4", "event-title");
    const link = el("a", "");
    link.href = sitePath(result.url);
    // The day in the link, so a link read alone still says when (as in the lists).
    // Portal text in its own direction, as on the lists (docs/site.md, "Right to left").
    const name = el("span", "p-name", meta.title || result.url);
    name.dir = "auto";
    link.append(name);
    if (meta.dayLabel) link.append(el("span", "visually-hidden", `, ${meta.dayLabel}`));
    title.append(link);
    body.append(title);
    if (meta.status === "cancelled")
      body.append(" ", el("span", "badge badge-cancelled", label("labelCancelled")));
    if (meta.status === "postponed")
      body.append(" ", el("span", "badge badge-postponed", label("labelPostponed")));
    if (meta.newDate === "true")
      body.append(" ", el("span", "badge badge-new-date", label("labelNewDate")));
    const facts = el("p", "event-meta");
    const chip = el("span", "calendar-chip", meta.calendar || "");
    chip.dir = "auto";
    const calendarClass = meta.calendarClass || "";
    if (/^cal-[A-Za-z0-9_-]+$/.test(calendarClass)) chip.classList.add(calendarClass);
    facts.append(chip);
    if (meta.place) {
      const place = el("span", "meta-place", meta.place);
      place.dir = "auto";
      facts.append(place);
    }
    if (meta.attendanceLabel) facts.append(el("span", "meta-online", meta.attendanceLabel));
    body.append(facts);
    item.append(when, body);
    return item;
  }

  /** Result URLs are the site's own paths; anything else becomes the search page. */
  function sitePath(url: string): string {
    try {
      const parsed = new URL(url, location.origin);
      return parsed.origin === location.origin ? parsed.pathname : searchPage;
    } catch {
      return searchPage;
    }
  }

  function renderPager(state: State, page: number, pageCount: number): void {
    pager.hidden = pageCount <= 1;
    const text = label("labelPage", { page, count: pageCount });
    pager.setAttribute("aria-label", text);
    pager.dataset.page = String(page);
    $("search-page").textContent = text;
    const previous = $("search-previous") as HTMLAnchorElement;
    const next = $("search-next") as HTMLAnchorElement;
    previous.hidden = page <= 1;
    next.hidden = page >= pageCount;
    previous.href = urlOf({ ...state, page: page - 1 });
    next.href = urlOf({ ...state, page: page + 1 });
  }

  /**
   * The subscription whose files hold exactly the filtered events (calendar,
   * category, or both), or the nearest one with a note on what it cannot follow.
   */
  async function offerSubscription(state: State): Promise<void> {
    const panel = $("search-subscribe");
    const all = await loadSubscriptions();
    const find = (calendar: string | null, category: string | null) =>
      all.find((s) => s.calendar === calendar && s.category === category);
    const calendar = state.calendar || null;
    const category = state.category || null;
    const exactScope = find(calendar, category);
    const sub =
      exactScope ||
      (calendar && find(calendar, null)) ||
      (category && find(null, category)) ||
      find(null, null);
    if (!sub) {
      panel.hidden = true;
      return;
    }
    const reasons = [
      state.q && label("labelReasonWords"),
      state.place && label("labelReasonPlace"),
      dateWindow(state) && label("labelReasonDate"),
      state.attendance && label("labelReasonAttendance"),
      state.cancelled && label("labelReasonCancelled"),
    ].filter((reason): reason is string => Boolean(reason));
    const exact = Boolean(exactScope) && reasons.length === 0;
    $("search-subscribe-heading").textContent =
      exact && (calendar || category)
        ? label("labelSubscribeFiltered")
        : label("labelSubscribeTo", { name: sub.name });
    const note = $("search-subscribe-note");
    note.hidden = exact;
    if (!exact) {
      const list = new Intl.ListFormat(document.documentElement.lang || "en", {
        type: "conjunction",
      });
      const why = reasons.length ? reasons : [label("labelReasonWords")];
      note.textContent = label("labelNearest", { reasons: list.format(why), name: sub.name });
    }
    const set = (id: string, href: string) => {
      ($(id) as HTMLAnchorElement).href = href;
    };
    set("search-sub-webcal", sub.webcal);
    set("search-sub-google", sub.google);
    set("search-sub-outlook", sub.outlook);
    set("search-sub-office365", sub.office365);
    set("search-sub-rss", sub.rss);
    set("search-sub-atom", sub.atom);
    set("search-sub-json", sub.json);
    ($("search-sub-url") as HTMLInputElement).value = sub.https;
    const qr = $("search-sub-qr") as HTMLImageElement;
    qr.src = sub.qr;
    qr.alt = label("labelQrAlt", { name: sub.name });
    panel.dataset.calendar = sub.calendar || "";
    panel.dataset.category = sub.category || "";
    panel.dataset.exact = String(exact);
    panel.hidden = false;
  }

  /*
   * Wiring: the URL is the state. A chosen filter or a submitted query is a
   * new history entry (Back undoes it); live results while typing replace
   * the current one.
   */
  let typing = 0;
  const update = (push: boolean) => {
    const state = stateFromForm();
    const url = urlOf(state);
    if (url !== `${location.pathname}${location.search}`) {
      history[push ? "pushState" : "replaceState"](null, "", url);
    }
    const dates = form.querySelector("[data-range-fields]");
    if (dates instanceof HTMLElement) dates.hidden = state.when !== "range";
    search(state);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(typing);
    update(true);
  });
  form.addEventListener("change", (event) => {
    // The words field commits with Enter (submit) or live while typing (input).
    if (event.target instanceof HTMLInputElement && event.target.type === "search") return;
    update(true);
  });
  form.addEventListener("input", (event) => {
    if (!(event.target instanceof HTMLInputElement) || event.target.type !== "search") return;
    clearTimeout(typing);
    typing = window.setTimeout(() => update(false), 300);
  });
  pager.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (!link) return;
    event.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    search(stateFromUrl(), { focusResults: true });
  });
  window.addEventListener("popstate", () => {
    const state = stateFromUrl();
    fillForm(state);
    search(state);
  });

  const initial = stateFromUrl();
  fillForm(initial);
  // A shared link may carry empty or unknown parameters: keep the URL clean.
  history.replaceState(null, "", urlOf(initial));
  search(initial);
}
