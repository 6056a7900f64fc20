import { REDACTED } from "../api/auth.ts";
import { isPlainObject } from "../model/field-map.ts";
import { htmlToText, plainTextLine, sanitizeDescription } from "../model/sanitize.ts";

/** Two terminal lines: enough for a portal's reason, short enough to read at a glance. */
const MAX_CHARS = 160;

/** Fields portals put their human message in, in the order they read best. */
const MESSAGE_KEYS = [
  "title",
  "error",
  "message",
  "detail",
  "error_description",
  "description",
  "reason",
  "msg",
] as const;

/**
 * Names under which a body may carry a credential (a portal that echoes the
 * request, a debug dump): `token`, `api_key`, `csrf_token`, `x-api-key`,
 * `password`... Only a name followed by `:` or `=` counts, so words in a
 * sentence ("the token is not valid") are left alone.
 */
const SECRET_NAME =
  "[\\w-]*?(?:token|secret|password|passwd|apikey|api[_-]?key|key|authorization|cookie|session[_-]?id|session|signature|credentials?)";

/** A JSON member named like a credential. */
const SECRET_KEY = new RegExp(`^${SECRET_NAME}$`, "i");
/** `name=value`, `name: value`, `"name":"value"`, `name: Bearer value`. */
const NAMED_SECRET = new RegExp(
  `(\\b${SECRET_NAME}["']?\\s*[:=]\\s*["']?)(?:(?:Bearer|Basic|Token)\\s+)?([^\\s"'&,;<>}\\]]+)`,
  "gi",
);
/**
 * A value that looks made by a machine: 8 characters or more with a digit,
 * a capital inside or a symbol. "Invalid token: The token was revoked" keeps
 * its words; "token=k3yS3cr3t..." loses its value.
 */
const CREDENTIAL_LIKE = /^(?=.{8})(?=.*(?:\d|.[A-Z]|[_\-+/=.~]))/;
/** An Authorization value written out (`Bearer 3f9a...`); real credentials hold a digit. */
const SCHEME_SECRET = /\b(Bearer|Basic)\s+(?=[\w.~+/=-]*\d)[\w.~+/=-]{8,}/g;

/**
 * The portal's own words about a rejection, for one or two lines before
 * check-api blames the token: the message fields of a JSON answer (RFC 9457
 * `title` and `detail`, OAuth's `error` and `error_description`, `message`,
 * also inside `error: { ... }` or `errors: [ ... ]`), else the text of the
 * answer without its HTML. Values named like credentials are replaced, so
 * whatever the portal echoes stays on screen only as `[redacted]`; `redact`
 * (the HTTP client's) removes the token once more from the text as shown,
 * after character references were decoded and before it is cut. Null when the
 * portal said nothing.
 */
export function errorBodyExcerpt(
  body: string | null,
  redact: (text: string) => string,
): string | null {
  if (body === null || body.trim() === "") return null;
  // plainTextLine: one line, as titles are read, without control characters a terminal would obey.
  const text = redact(plainTextLine(maskSecrets(readable(body))));
  if (text === "") return null;
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1).trimEnd()}…` : text;
}

function readable(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return /<[a-z!/]/i.test(body) ? htmlToText(sanitizeDescription(body)) : body;
  }
  const messages = messagesOf(parsed);
  return messages.length > 0 ? messages.join(": ") : JSON.stringify(maskValues(parsed));
}

function messagesOf(value: unknown): string[] {
  if (!isPlainObject(value)) return [];
  const places = [value];
  if (isPlainObject(value.error)) places.push(value.error);
  if (Array.isArray(value.errors) && isPlainObject(value.errors[0])) places.push(value.errors[0]);
  const found: string[] = [];
  for (const place of places) {
    for (const key of MESSAGE_KEYS) {
      const message = place[key];
      if (typeof message === "string" && message.trim() !== "" && !found.includes(message.trim()))
        found.push(message.trim());
    }
  }
  return found;
}

/** A JSON answer without messages is shown whole: values under secret names go first. */
function maskValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskValues);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_KEY.test(key) && inner !== null && typeof inner !== "object"
        ? REDACTED
        : maskValues(inner),
    ]),
  );
}

function maskSecrets(text: string): string {
  return text
    .replace(NAMED_SECRET, (whole, name: string, value: string) =>
      CREDENTIAL_LIKE.test(value) ? `${name}${REDACTED}` : whole,
    )
    .replace(SCHEME_SECRET, (_, scheme: string) => `${scheme} ${REDACTED}`);
}
