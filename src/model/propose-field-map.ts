import { isValidZone, parseWireTime } from "./dates.ts";
import {
  type CalendarField,
  type EventField,
  eventPathIn,
  type FieldMap,
  fieldTranslations,
  isPlainObject,
  pickCalendarField,
  pickEventField,
  readPath,
  unmappedFields,
} from "./field-map.ts";
import { readGeo } from "./geo.ts";
import type { WireRecord } from "./wire.ts";

/** Wire records check-api saw: calendars, and events with their details when fetched. */
export interface FieldSamples {
  readonly calendars: readonly WireRecord[];
  readonly events: ReadonlyArray<{
    readonly listed: WireRecord;
    readonly details: WireRecord | null;
  }>;
}

export interface FieldProposal {
  readonly kind: "calendar" | "event";
  readonly field: string;
  /** Wire name (dot path) proposed for the field. */
  readonly wire: string;
  /** Why, in words: what the values looked like and how the name fits. */
  readonly reason: string;
}

/** An entry of the given field map that matches no wire field of the sampled records. */
export interface UnmatchedEntry {
  readonly kind: "calendar" | "event";
  readonly field: string;
  /** The entry's wire path, as the given map has it. */
  readonly wire: string;
  /**
   * The path that does match, for an entry written for a details envelope on
   * records that have a field of the envelope's name (so eventPathIn reads it
   * as written); null when nothing does and the entry is left out.
   */
  readonly rewrite: string | null;
}

/** What the values at one wire path look like. */
type ValueKind =
  | "boolean"
  | "time"
  | "date"
  | "integer"
  | "zone"
  | "color"
  | "url"
  | "image-url"
  | "geo"
  | "html"
  | "text"
  | "list"
  | "image"
  | "link"
  | "place"
  | "person"
  | "object";

interface Candidate {
  readonly path: string;
  readonly kind: ValueKind;
  /** Values per sampled record (undefined where absent), for pairing start and end. */
  readonly values: readonly unknown[];
  readonly present: number;
}

interface Rule {
  /** Kinds accepted whatever the name. */
  readonly kinds: readonly ValueKind[];
  /** Kinds accepted only when the name matches `hint`. */
  readonly hinted?: readonly ValueKind[];
  readonly hint?: RegExp;
}

const STAMP = /creat|modif|updat|chang|publish|added|insert|stamp|synced|last/i;
const START = /start|begin|from|since|dtstart|opens?$|^date$|^when$/i;
const END = /end|until|till|(^|[^a-z])to$|[a-z]To$|finish|dtend|clos/;

const EVENT_RULES: ReadonlyArray<readonly [EventField, Rule]> = [
  ["id", { kinds: [], hinted: ["text", "integer"], hint: /(^|[._-])(id|uuid|uid|key)$|[a-z]Id$/ }],
  ["title", { kinds: [], hinted: ["text"], hint: /title|name|heading|subject|caption|label/i }],
  [
    "allDay",
    { kinds: [], hinted: ["boolean"], hint: /all.?day|whole.?day|full.?day|day.?long|date.?only/i },
  ],
  ["timeZone", { kinds: ["zone"] }],
  ["status", { kinds: [], hinted: ["text"], hint: /status|state/i }],
  ["cancelled", { kinds: [], hinted: ["boolean"], hint: /cancel/i }],
  ["updatedAt", { kinds: [], hinted: ["time"], hint: /modif|updat|chang|last|stamp/i }],
  ["createdAt", { kinds: [], hinted: ["time"], hint: /creat|added|insert|publish/i }],
  ["revision", { kinds: [], hinted: ["integer"], hint: /revision|version|sequence|(^|[._])rev$/i }],
  [
    "image",
    {
      kinds: ["image-url", "image"],
      hinted: ["url", "link"],
      hint: /image|img|picture|photo|thumb|banner|poster|cover/i,
    },
  ],
  [
    "onlineUrl",
    {
      kinds: [],
      hinted: ["url", "link"],
      hint: /stream|online|meet|join|virtual|webinar|zoom|live|video|call/i,
    },
  ],
  [
    "registrationUrl",
    {
      kinds: [],
      hinted: ["url", "link"],
      hint: /ticket|regist|book|sign.?up|rsvp|enrol|reserv|order|buy/i,
    },
  ],
  [
    "location",
    {
      kinds: ["place", "geo"],
      hinted: ["text"],
      hint: /place|venue|location|address|where|site|locality/i,
    },
  ],
  [
    "organizer",
    { kinds: ["person"], hinted: ["text"], hint: /organi[sz]|host|contact|provider|owner/i },
  ],
  ["categories", { kinds: ["list"] }],
  [
    "description",
    { kinds: ["html"], hinted: ["text"], hint: /descr|body|content|text|html|detail|info|about/i },
  ],
  [
    "summary",
    {
      kinds: [],
      hinted: ["text"],
      hint: /summar|teaser|excerpt|abstract|intro|lead|perex|subtitle|short|annotation|blurb/i,
    },
  ],
  ["attendanceMode", { kinds: [], hinted: ["text"], hint: /attendance|format|mode/i }],
];

const CALENDAR_RULES: ReadonlyArray<readonly [CalendarField, Rule]> = [
  [
    "id",
    { kinds: [], hinted: ["text", "integer"], hint: /(^|[._-])(id|uuid|uid|key|slug)$|[a-z]Id$/ },
  ],
  ["name", { kinds: [], hinted: ["text"], hint: /name|title|label|caption/i }],
  ["timeZone", { kinds: ["zone"] }],
  ["color", { kinds: ["color"] }],
  ["updatedAt", { kinds: [], hinted: ["time"], hint: /modif|updat|chang|last|stamp/i }],
  ["description", { kinds: [], hinted: ["text", "html"], hint: /descr|about|summar|info|intro/i }],
];

/**
 * Proposes field-map entries for fields nothing reads yet, from the wire
 * names and values check-api saw: values that parse as date-times are start
 * and end candidates (the earlier one is the start when the names do not
 * tell), a boolean named like "cancelled" is the cancelled flag, an image URL
 * or `{ url }` object is the image, an array of strings is the categories, an
 * object with an address or coordinates is the place... Only wire fields
 * nothing reads are proposed, each for one field; fields already read are
 * left alone. Entries of the given map that match no wire field are not
 * carried over (an entry pins its field, so a dead one also hides the common
 * names): rewritten where the path without its envelope matches, else left
 * out, and listed in `unmatched`. Returns the whole map (the given one, so
 * cleaned, plus the proposals).
 */
export function proposeFieldMap(
  samples: FieldSamples,
  given: FieldMap,
): { map: FieldMap; proposals: FieldProposal[]; unmatched: UnmatchedEntry[] } {
  const proposals: FieldProposal[] = [];
  const { map, unmatched } = withoutUnmatched(samples, given);
  const event = { ...map.event } as Record<string, string>;
  const calendar = { ...map.calendar } as Record<string, string>;

  const eventRecords = samples.events.map(({ listed, details }) =>
    details ? [details, listed] : [listed],
  );
  const eventCandidates = candidates(
    eventRecords,
    samples.events.flatMap(({ listed, details }) => [
      ...unmappedFields(listed, "event", map),
      ...(details ? unmappedFields(details, "event", map) : []),
    ]),
  );
  const missingEvent = (field: EventField) =>
    eventRecords.every((records) => pickEventField(records, field, map) === undefined);
  const used = new Set<string>();
  const take = (field: EventField, candidate: Candidate, why: string) => {
    used.add(candidate.path);
    event[field] = candidate.path;
    proposals.push({ kind: "event", field, wire: candidate.path, reason: why });
  };

  // Start and end first: the record is unusable without a start.
  const times = eventCandidates.filter(
    (c) => (c.kind === "time" || c.kind === "date") && !STAMP.test(last(c.path)),
  );
  const needStart = missingEvent("start");
  const needEnd = missingEvent("end");
  const named = (re: RegExp) => times.find((c) => re.test(last(c.path)) && !used.has(c.path));
  if (needStart) {
    const start = named(START) ?? earliest(times.filter((c) => !END.test(last(c.path))));
    if (start) take("start", start, `${describe(start)}, named like a start`);
  }
  if (needEnd) {
    const end = named(END) ?? times.find((c) => !used.has(c.path) && !START.test(last(c.path)));
    if (end) take("end", end, `${describe(end)}, named like an end`);
  }
  for (const [field, rule] of EVENT_RULES) {
    if (!missingEvent(field)) continue;
    const found = pickCandidate(eventCandidates, rule, used);
    if (found) take(field, found.candidate, found.why);
  }

  const calendarCandidates = candidates(
    samples.calendars.map((record) => [record]),
    samples.calendars.flatMap((record) => unmappedFields(record, "calendar", map)),
  );
  const usedCalendar = new Set<string>();
  for (const [field, rule] of CALENDAR_RULES) {
    if (!samples.calendars.every((record) => pickCalendarField([record], field, map) === undefined))
      continue;
    const found = pickCandidate(calendarCandidates, rule, usedCalendar);
    if (!found) continue;
    usedCalendar.add(found.candidate.path);
    calendar[field] = found.candidate.path;
    proposals.push({ kind: "calendar", field, wire: found.candidate.path, reason: found.why });
  }
  return { map: { calendar, event }, proposals, unmatched };
}

/**
 * The given map without the entries that match no wire field of the sampled
 * records (a present key counts, even when its value is empty). Calendar
 * entries are not judged without a calendar record, event entries not
 * without a details record (they carry what the lists leave out).
 */
function withoutUnmatched(
  samples: FieldSamples,
  given: FieldMap,
): { map: FieldMap; unmatched: UnmatchedEntry[] } {
  const unmatched: UnmatchedEntry[] = [];
  const events = samples.events.flatMap(({ listed, details }) =>
    details ? [details, listed] : [listed],
  );
  const judged = samples.events.some(({ details }) => details !== null);
  const event: Record<string, string> = {};
  // A portal may translate only some of its events, which the sample may miss:
  // a translation's entry (`title.fr`) is kept as given.
  const translations = new Set(
    [...fieldTranslations(given).entries()].flatMap(([tag, fields]) =>
      Object.keys(fields).map((field) => `${field}.${tag}`),
    ),
  );
  for (const [field, wire] of Object.entries(given.event)) {
    if (!wire) continue;
    const matches = (path: string, pathIn = eventPathIn) =>
      events.some((record) => readPath(record, pathIn(record, path)) !== undefined);
    if (!judged || translations.has(field) || matches(wire)) {
      event[field] = wire;
      continue;
    }
    // The path as it reads on a record without the envelope ("data.perex" -> "perex").
    const bare = eventPathIn({}, wire);
    const rewrite = bare !== wire && matches(bare, (_, path) => path) ? bare : null;
    if (rewrite) event[field] = rewrite;
    unmatched.push({ kind: "event", field, wire, rewrite });
  }
  const calendar: Record<string, string> = {};
  for (const [field, wire] of Object.entries(given.calendar)) {
    if (!wire) continue;
    if (
      samples.calendars.length === 0 ||
      samples.calendars.some((record) => readPath(record, wire) !== undefined)
    )
      calendar[field] = wire;
    else unmatched.push({ kind: "calendar", field, wire, rewrite: null });
  }
  return { map: { calendar, event }, unmatched };
}

function pickCandidate(
  list: readonly Candidate[],
  rule: Rule,
  used: ReadonlySet<string>,
): { candidate: Candidate; why: string } | null {
  const open = list.filter((c) => !used.has(c.path));
  const byName = rule.hint
    ? open.find(
        (c) =>
          rule.hint?.test(last(c.path)) &&
          (rule.kinds.includes(c.kind) || rule.hinted?.includes(c.kind)),
      )
    : undefined;
  if (byName) return { candidate: byName, why: `${describe(byName)}, and the name fits` };
  const byValue = open.find((c) => rule.kinds.includes(c.kind));
  return byValue ? { candidate: byValue, why: describe(byValue) } : null;
}

/** The candidate whose values come first in most records: the start of a start/end pair. */
function earliest(times: readonly Candidate[]): Candidate | undefined {
  if (times.length <= 1) return times[0];
  const instant = (value: unknown) => parseWireTime(value, "UTC")?.value.toMillis() ?? Number.NaN;
  return [...times].sort((a, b) => {
    let votes = 0;
    a.values.forEach((value, i) => {
      const x = instant(value);
      const y = instant(b.values[i]);
      if (x < y) votes--;
      else if (x > y) votes++;
    });
    return votes || b.present - a.present;
  })[0];
}

/**
 * Wire paths nothing reads, with the kind of their values. Objects that are
 * not values themselves (an envelope the portal wraps records in) are looked
 * into one level, so `data.perex` can be proposed.
 */
function candidates(
  records: ReadonlyArray<readonly WireRecord[]>,
  unread: readonly string[],
): Candidate[] {
  const paths: string[] = [];
  const add = (path: string) => {
    if (!paths.includes(path)) paths.push(path);
  };
  const valuesAt = (path: string) =>
    records.map((set) => {
      for (const record of set) {
        const value = readPath(record, path);
        if (value !== undefined && value !== null && value !== "") return value;
      }
      return undefined;
    });
  for (const key of unread) {
    if (!isSafeKey(key)) continue;
    add(key);
    const values = valuesAt(key).filter((value) => value !== undefined);
    if (values.length > 0 && values.every(isPlainObject) && kindOf(values, key) === "object") {
      for (const inner of values.flatMap((value) => Object.keys(value as object))) {
        if (isSafeKey(inner)) add(`${key}.${inner}`);
      }
    }
  }
  const found: Candidate[] = [];
  for (const path of paths) {
    const values = valuesAt(path);
    const present = values.filter((value) => value !== undefined);
    if (present.length === 0) continue;
    found.push({ path, kind: kindOf(present, path), values, present: present.length });
  }
  return found.sort((a, b) => b.present - a.present);
}

const IMAGE_URL = /\.(png|jpe?g|gif|webp|svg|avif)([?#].*)?$/i;
const HTTP_URL = /^https?:\/\/\S+$/i;
const DATEISH = /^\d{4}-\d{2}-\d{2}|^\d{1,2}[./]\d{1,2}[./]\d{4}|^[A-Z][a-z]{2}, \d/;
const TIMEISH_NAME =
  /date|time|at$|on$|stamp|modif|creat|updat|chang|last|publish|added|start|end|from|to$|begin|until|since/i;
/** Epoch seconds or milliseconds from 2001 to 2286: far from ids and counters. */
const isEpoch = (n: number) =>
  Number.isInteger(n) && ((n >= 1e9 && n < 1e10) || (n >= 1e12 && n < 1e13));

function kindOf(values: readonly unknown[], path: string): ValueKind {
  const all = (test: (value: unknown) => boolean) => values.every(test);
  const strings = all((v) => typeof v === "string");
  if (all((v) => typeof v === "boolean")) return "boolean";
  if (all((v) => typeof v === "number" && isEpoch(v)) && TIMEISH_NAME.test(last(path)))
    return "time";
  if (all((v) => typeof v === "number" && Number.isInteger(v))) return "integer";
  if (strings) {
    const texts = values as string[];
    if (texts.every((t) => /^\d{4}-\d{2}-\d{2}$/.test(t.trim()))) return "date";
    if (texts.every((t) => DATEISH.test(t.trim()) && parseWireTime(t, "UTC") !== null))
      return "time";
    if (
      texts.every((t) => /^\d{9,13}$/.test(t.trim()) && isEpoch(Number(t))) &&
      TIMEISH_NAME.test(last(path))
    ) {
      return "time";
    }
    if (
      texts.every((t) => t.includes("/") || t === "UTC") &&
      texts.every((t) => isValidZone(t.trim()))
    )
      return "zone";
    if (texts.every((t) => /^#([\da-f]{3}|[\da-f]{6})$/i.test(t.trim()))) return "color";
    if (texts.every((t) => HTTP_URL.test(t.trim()))) {
      return texts.every((t) => IMAGE_URL.test(t.trim())) ? "image-url" : "url";
    }
    if (texts.every((t) => readGeo(t) !== null)) return "geo";
    if (texts.some((t) => /<[a-z][a-z0-9]*(\s[^>]*)?>/i.test(t))) return "html";
    return "text";
  }
  if (all((v) => Array.isArray(v))) {
    const items = (values as unknown[][]).flat();
    const named = (item: unknown) =>
      typeof item === "string" ||
      (isPlainObject(item) && typeof (item.name ?? item.label ?? item.title) === "string");
    return items.length > 0 && items.every(named) ? "list" : "object";
  }
  if (all(isPlainObject)) {
    const objects = values as Record<string, unknown>[];
    const has = (keys: readonly string[]) =>
      objects.every((o) => keys.some((key) => o[key] !== undefined));
    const link = (o: Record<string, unknown>) => o.url ?? o.src ?? o.href;
    if (objects.every((o) => typeof link(o) === "string" && HTTP_URL.test(String(link(o))))) {
      return objects.every((o) => IMAGE_URL.test(String(link(o)))) ||
        has(["alt", "width", "caption"])
        ? "image"
        : "link";
    }
    if (has(["dateTime", "date_time", "date"])) return "time";
    if (
      has([
        "address",
        "geo",
        "lat",
        "latitude",
        "street",
        "city",
        "locality",
        "coordinates",
        "venue",
      ])
    )
      return "place";
    if (has(["name"]) && has(["email", "phone", "url", "website"])) return "person";
    return "object";
  }
  return "object";
}

const KIND_WORDS: Readonly<Record<ValueKind, string>> = {
  boolean: "true/false values",
  time: "date-times",
  date: "dates",
  integer: "whole numbers",
  zone: "IANA time zones",
  color: "colours",
  url: "URLs",
  "image-url": "image URLs",
  geo: '"lat,lon" coordinates',
  html: "HTML text",
  text: "text",
  list: "lists of names",
  image: "image objects",
  link: "link objects",
  place: "places (address or coordinates)",
  person: "people (name with e-mail or URL)",
  object: "objects",
};

function describe(candidate: Candidate): string {
  return `${KIND_WORDS[candidate.kind]} in ${candidate.present} sampled record${candidate.present === 1 ? "" : "s"}`;
}

function last(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}

/** Keys a dot path can reach (no dots, nothing that looks like an injection into the JSON map). */
function isSafeKey(key: string): boolean {
  return /^[^.\s"'\\`]{1,64}$/.test(key);
}
