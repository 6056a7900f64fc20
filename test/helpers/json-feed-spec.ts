/**
 * What the JSON Feed 1.1 specification (jsonfeed.org/version/1.1) asks of a
 * feed, field by field, checked on parsed JSON: no reader this machine has
 * (Debian's feedparser reads RSS and Atom only) reads JSON Feed, so the
 * tests hold the published feeds to the specification itself. Returns the
 * problems, each naming its field; none for a valid feed.
 */
export function jsonFeedProblems(feed: unknown): string[] {
  const problems: string[] = [];
  const fail = (field: string, rule: string) => problems.push(`${field}: ${rule}`);
  if (!isObject(feed)) return ["the feed is not a JSON object"];

  if (feed.version !== "https://jsonfeed.org/version/1.1")
    fail("version", "must be https://jsonfeed.org/version/1.1");
  requiredString(feed, "title", fail);
  // "optional but strongly recommended", "considered required" on the public web.
  url(feed, "home_page_url", fail, true);
  url(feed, "feed_url", fail, true);
  optionalString(feed, "description", fail);
  if (feed.language !== undefined && !isLanguageTag(feed.language))
    fail("language", "must be an RFC 5646 language tag");
  authors(feed, "authors", fail);
  // JSON Feed 1.0's `author`, kept beside `authors` for 1.0 readers ("Deprecations").
  if (feed.author !== undefined) author(feed.author, "author", fail);
  if (feed.hubs !== undefined) {
    if (!Array.isArray(feed.hubs)) fail("hubs", "must be an array");
    else
      feed.hubs.forEach((hub: unknown, index) => {
        if (!isObject(hub) || typeof hub.type !== "string" || typeof hub.url !== "string")
          fail(`hubs[${index}]`, "needs a type and a url");
      });
  }
  unknownKeys(feed, FEED_KEYS, "", fail);

  if (!Array.isArray(feed.items)) {
    fail("items", "is required, an array");
    return problems;
  }
  feed.items.forEach((item: unknown, index) => {
    const at = `items[${index}]`;
    if (!isObject(item)) {
      fail(at, "must be an object");
      return;
    }
    const itemFail = (field: string, rule: string) => fail(`${at}.${field}`, rule);
    requiredString(item, "id", itemFail);
    url(item, "url", itemFail, false);
    optionalString(item, "title", itemFail);
    if (typeof item.content_html !== "string" && typeof item.content_text !== "string")
      itemFail("content_html", "content_html or content_text (or both) must be present");
    optionalString(item, "content_html", itemFail);
    optionalString(item, "content_text", itemFail);
    optionalString(item, "summary", itemFail);
    url(item, "image", itemFail, false);
    date(item, "date_published", itemFail);
    date(item, "date_modified", itemFail);
    authors(item, "authors", itemFail);
    if (
      item.tags !== undefined &&
      !(Array.isArray(item.tags) && item.tags.every((tag) => typeof tag === "string"))
    )
      itemFail("tags", "must be an array of strings");
    if (item.language !== undefined && !isLanguageTag(item.language))
      itemFail("language", "must be an RFC 5646 language tag");
    unknownKeys(item, ITEM_KEYS, `${at}.`, fail);
  });
  return problems;
}

type Fail = (field: string, rule: string) => void;
type Fields = Record<string, unknown>;

/** The top-level keys of 1.1 (and 1.0's `author`); others must start with "_" (extensions). */
const FEED_KEYS = new Set([
  "version",
  "title",
  "home_page_url",
  "feed_url",
  "description",
  "user_comment",
  "next_url",
  "icon",
  "favicon",
  "authors",
  "author",
  "language",
  "expired",
  "hubs",
  "items",
]);

const ITEM_KEYS = new Set([
  "id",
  "url",
  "external_url",
  "title",
  "content_html",
  "content_text",
  "summary",
  "image",
  "banner_image",
  "date_published",
  "date_modified",
  "authors",
  "author",
  "tags",
  "language",
  "attachments",
]);

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requiredString(object: Fields, field: string, fail: Fail): void {
  if (typeof object[field] !== "string" || object[field] === "")
    fail(field, "is required, a non-empty string");
}

function optionalString(object: Fields, field: string, fail: Fail): void {
  if (object[field] !== undefined && typeof object[field] !== "string")
    fail(field, "must be a string");
}

/** An absolute http(s) URL, as every URL of a feed on the public web must be to be followed. */
function url(object: Fields, field: string, fail: Fail, required: boolean): void {
  const value = object[field];
  if (value === undefined) {
    if (required) fail(field, "should be present on the public web");
    return;
  }
  if (typeof value !== "string" || !URL.canParse(value) || !/^https?:\/\//.test(value))
    fail(field, "must be an absolute http(s) URL");
}

/** RFC 3339 section 5.6: a full date, "T", a full time with seconds and an offset. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function date(object: Fields, field: string, fail: Fail): void {
  const value = object[field];
  if (value === undefined) return;
  if (typeof value !== "string" || !RFC_3339.test(value) || Number.isNaN(Date.parse(value)))
    fail(field, "must be an RFC 3339 date-time");
}

function authors(object: Fields, field: string, fail: Fail): void {
  const value = object[field];
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length === 0) {
    fail(field, "must be a non-empty array of author objects");
    return;
  }
  value.forEach((item: unknown, index) => {
    author(item, `${field}[${index}]`, fail);
  });
}

/** Every member optional, "but if you provide an author object, then at least one is required". */
function author(value: unknown, field: string, fail: Fail): void {
  if (!isObject(value)) {
    fail(field, "must be an object");
    return;
  }
  const members = ["name", "url", "avatar"].filter((key) => value[key] !== undefined);
  if (members.length === 0) fail(field, "needs a name, url or avatar");
  optionalString(value, "name", (key, rule) => fail(`${field}.${key}`, rule));
  url(value, "url", (key, rule) => fail(`${field}.${key}`, rule), false);
  url(value, "avatar", (key, rule) => fail(`${field}.${key}`, rule), false);
}

/** A well-formed BCP 47 (RFC 5646) tag, as Intl's parser of them reads it. */
function isLanguageTag(value: unknown): boolean {
  if (typeof value !== "string" || value === "") return false;
  try {
    Intl.getCanonicalLocales(value);
    return true;
  } catch {
    return false;
  }
}

function unknownKeys(object: Fields, known: ReadonlySet<string>, at: string, fail: Fail): void {
  for (const key of Object.keys(object))
    if (!known.has(key) && !/^_[A-Za-z]/.test(key))
      fail(`${at}${key}`, "is no JSON Feed field, and extensions start with _");
}
