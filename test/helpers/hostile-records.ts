import fc from "fast-check";
import type { WireRecord } from "../../src/model/wire.ts";
import { NOW_MS } from "./clock.ts";

/*
 * Event records as a hostile editor, or a broken portal, could send them,
 * for property-based tests (fast-check): text of any code points (lone
 * surrogates, bidirectional controls, noncharacters, controls), markup and
 * script URLs, huge texts and lists, wrong types, nulls and deep objects
 * wherever a field is expected. Every arbitrary is bounded, so that a run
 * takes what a test can afford.
 */

/**
 * A value nested `depth` arrays deep: JSON parsers read it, recursive code
 * may not (JSON.stringify overflows its stack at about 10,000). It prints
 * as its recipe, for fast-check's report would overflow too, and `wireJson`
 * writes it without recursing.
 */
export function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = [value];
  Object.defineProperty(value, NESTED_DEPTH, { value: depth });
  return Object.defineProperty(value, fc.toStringMethod, { value: () => `nested(${depth})` });
}

const NESTED_DEPTH = Symbol("nested depth");

/** A value as a portal sends it: JSON, lone surrogates escaped, `nested` values written out. */
export function wireJson(value: unknown): string {
  const deep: number[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== "object" || inner === null || !(NESTED_DEPTH in inner)) return inner;
    deep.push(inner[NESTED_DEPTH] as number);
    return `\u0000nested ${deep.length - 1}\u0000`;
  });
  return text.replace(/"\\u0000nested (\d+)\\u0000"/g, (_, index: string) => {
    const depth = deep[Number(index)] ?? 0;
    return `${"[".repeat(depth)}"bottom"${"]".repeat(depth)}`;
  });
}

/** What an editor can type to attack a page, a feed, a calendar file or a URL. */
export const HOSTILE_PIECES = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "<svg onload=alert(1)>",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "&#106;avascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  '<a href="javascript:alert(1)">x</a>',
  "<iframe src=https://evil.example/></iframe>",
  "<style>*{display:none}</style>",
  "]]>",
  "-->",
  "&lt;script&gt;",
  "&amp;lt;",
  "&#xD800;",
  "&#x202E;",
  "{{ 7 * 7 }}",
  "{% raw %}",
  "\r\nBEGIN:VEVENT\r\n",
  "\\n,;",
  "\ud800",
  "\udfff",
  "\ud83d\ude00",
  "\u202e",
  "\u202d",
  "\u2067",
  "\u2069",
  "\u200f",
  "\u0000",
  "\u001b[31m",
  "\u0085",
  "\u2028",
  "\ufffe",
  "\uffff",
  "👩‍👩‍👧",
  "e\u0301\u0301\u0301",
  "مهرجان",
] as const;

/** One code point of the whole range, or one lone surrogate. */
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((cp) => (cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp)));

/** Short text of any code points with hostile pieces among them. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ unit: anyCodePoint, maxLength: 12 }),
      fc.constantFrom(...HOSTILE_PIECES),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));

/** Text that meets the limits: a hostile text repeated to up to `max` UTF-16 units. */
export function longText(max: number): fc.Arbitrary<string> {
  return fc
    .tuple(hostileText, fc.integer({ min: 1, max }))
    .map(([text, length]) =>
      (text || "x").repeat(Math.ceil(length / (text.length || 1))).slice(0, length),
    );
}

/** Names of fields the normalizer reads, so that random objects reach its readers. */
const FIELD_NAMES = [
  "id",
  "name",
  "title",
  "url",
  "href",
  "alt",
  "address",
  "street",
  "city",
  "geo",
  "lat",
  "lon",
  "email",
  "type",
  "amount",
  "currency",
] as const;

/** Any JSON value, hostile text for its strings, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.constant(null),
    fc.constant(nested(20_000)),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileText,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileText, fc.constantFrom(...FIELD_NAMES)), tie("value"), {
      maxKeys: 4,
    }),
  ),
})).value;

/** A URL of any scheme, or one past the length limit. */
const hostileUrl = fc.oneof(
  fc.constantFrom(
    "javascript:alert(1)",
    " javascript:alert(1)",
    "java\nscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "https://user:pass@example.org/",
    "https://example.org/\ud800",
    "https://ex\u202eample.org/",
    `https://example.org/${"a".repeat(5_000)}`,
    "mailto:info@example.org",
    "https://example.org/ok?a=1&b=<2>",
  ),
  hostileText.map((text) => `https://example.org/${text}`),
  hostileText,
);

/** Readable times around the tests' clock, and anything else. */
const hostileTime = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -20, max: 60 }).map((days) => iso(days)) },
  { weight: 1, arbitrary: hostileValue },
);

function iso(days: number): string {
  return new Date(NOW_MS + days * 86_400_000).toISOString().replace(".000Z", "Z");
}

/** Something in every shape a field may be given in, or any other value. */
const anyOf = (...shapes: fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown> =>
  fc.oneof(...shapes, hostileValue);

const category = fc.oneof(
  hostileText,
  fc.record({ id: fc.oneof(hostileText, fc.integer()), name: hostileText }, { requiredKeys: [] }),
);

/**
 * The fields of a details record: every field the normalizer reads, each
 * in a valid, hostile or wrong shape, or missing.
 */
export const hostileDetails: fc.Arbitrary<WireRecord> = fc.record(
  {
    title: anyOf(hostileText, longText(5_000)),
    summary: anyOf(hostileText, longText(5_000)),
    description: anyOf(
      hostileText,
      longText(400_000),
      fc
        .array(
          fc.constantFrom(
            ...HOSTILE_PIECES,
            "<p>",
            "</p>",
            "<b>",
            "<a href='https://example.org'>",
          ),
          {
            maxLength: 2_000,
          },
        )
        .map((parts) => parts.join(" ")),
    ),
    status: anyOf(fc.constantFrom("scheduled", "cancelled", "postponed", "Mars"), hostileText),
    timeZone: anyOf(fc.constantFrom("Europe/Amsterdam", "UTC", "America/New_York", "Mars/Base")),
    start: hostileTime,
    end: hostileTime,
    allDay: anyOf(fc.boolean()),
    location: anyOf(
      hostileText,
      longText(20_000),
      fc.record(
        {
          id: anyOf(hostileText),
          name: anyOf(hostileText, longText(20_000)),
          address: anyOf(
            hostileText,
            fc.record(
              { street: anyOf(longText(2_000)), locality: hostileText, country: hostileText },
              { requiredKeys: [] },
            ),
          ),
          geo: anyOf(fc.record({ lat: fc.double(), lon: fc.double() })),
        },
        { requiredKeys: [] },
      ),
    ),
    onlineUrl: anyOf(hostileUrl),
    registrationUrl: anyOf(hostileUrl, fc.record({ url: hostileUrl })),
    image: anyOf(
      hostileUrl,
      fc.record(
        { url: hostileUrl, alt: anyOf(longText(5_000)), width: hostileValue },
        { requiredKeys: [] },
      ),
    ),
    categories: anyOf(
      fc.array(category, { maxLength: 40 }),
      fc
        .integer({ min: 0, max: 600 })
        .map((n) => Array.from({ length: n }, (_, i) => `Category ${i}`)),
      longText(20_000).map((text) => `${text},`.repeat(3)),
    ),
    organizer: anyOf(
      hostileText,
      fc.record(
        { name: anyOf(longText(2_000)), email: anyOf(hostileText), url: anyOf(hostileUrl) },
        { requiredKeys: [] },
      ),
    ),
    performer: anyOf(
      fc.array(
        anyOf(hostileText, fc.record({ name: hostileText, url: hostileUrl, type: hostileValue })),
        {
          maxLength: 80,
        },
      ),
    ),
    accessibility: anyOf(
      hostileText,
      fc.array(anyOf(hostileText, longText(2_000), fc.record({ name: hostileText })), {
        maxLength: 60,
      }),
      fc.dictionary(hostileText, hostileValue),
    ),
    price: anyOf(fc.double(), hostileText),
    seriesId: anyOf(hostileText, fc.record({ id: hostileText })),
    revision: anyOf(fc.integer()),
    updatedAt: hostileTime,
    extra: hostileValue,
  },
  { requiredKeys: [] },
);

/**
 * A list record and its details that the build can read (an id, a title, a
 * start), with every other field hostile: what gets published is what a
 * hostile editor wrote.
 */
export function publishableEvent(
  id: string,
): fc.Arbitrary<{ listed: WireRecord; details: WireRecord }> {
  return fc
    .tuple(hostileDetails, hostileText, fc.integer({ min: 1, max: 60 }))
    .map(([details, title, day]) => {
      const base = { id, title: `${title} x`, start: iso(day), timeZone: "Europe/Amsterdam" };
      // Every record carries a field nested deeper than recursive code survives.
      const listed = { ...base, end: iso(day + 0.1), nested: nested(20_000) };
      const { start, end, timeZone, ...rest } = details;
      return { listed, details: { ...listed, ...rest, id } };
    });
}

/**
 * Runs a property as fc.assert does, seeded, and reports a failure by its
 * seed, its path and its error: the counterexample itself (megabytes of
 * hostile text) would bury them. `fc.assert(property, { seed, path })`
 * replays it.
 */
export async function checkProperty<T>(
  property: fc.IProperty<T> | fc.IAsyncProperty<T>,
  parameters: { readonly seed: number; readonly numRuns: number },
): Promise<void> {
  const run = await fc.check(property, { ...parameters, endOnFailure: true });
  if (!run.failed) return;
  const error = run.errorInstance;
  const message = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
  throw new Error(
    `Property failed after ${run.numRuns} runs; replay with { seed: ${run.seed}, path: "${run.counterexamplePath}" }:\n${message.slice(0, 4_000)}`,
  );
}
