import addressparser from "nodemailer/lib/addressparser";
import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";

/**
 * The weekly digest's settings (docs/configuration.md, "Weekly digest"):
 * the day it comes out, which the build reads for the digest's weeks and
 * the sender for the week that is due, and how `npm run send-digest` mails
 * it: the organization's SMTP server, sender, recipients and unsubscribe
 * address. Bad values are ConfigErrors naming the variable; SMTP_URL's
 * password is never part of a message.
 */

/** ISO weekdays: 1 is Monday, 7 is Sunday (src/site/when/week-rules.ts counts the same way). */
export const WEEKDAY_NAMES = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;

/** What readDigestDay reads (the site's settings list it too: the build's digest weeks). */
export const DIGEST_DAY_SETTINGS = envSettings("Weekly digest", ["DIGEST_DAY"]);

/**
 * DIGEST_DAY as an ISO weekday, or null when unset: the day before the
 * week starts in the site's language (src/digest/digest-week.ts), which the
 * settings alone cannot know.
 */
export function readDigestDay(env: NodeJS.ProcessEnv): number | null {
  const raw = env.DIGEST_DAY?.trim();
  if (!raw) return null;
  const value = raw.toLowerCase();
  const index = WEEKDAY_NAMES.findIndex((name) => name === value || name.slice(0, 3) === value);
  if (index < 0) {
    throw new ConfigError(
      `DIGEST_DAY: expected a day of the week in English, such as sunday or monday (or sun, mon); got "${raw}".`,
    );
  }
  return index + 1;
}

/** The organization's SMTP server, from SMTP_URL. */
export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  /** smtps://: TLS from the first byte (port 465 by default). */
  readonly secure: boolean;
  /**
   * smtp:// to another machine: the connection must be upgraded with
   * STARTTLS before anything else is sent, so the password never travels in
   * clear. A relay on this machine (loopback) may be spoken to in clear.
   */
  readonly requireTls: boolean;
  readonly user: string | null;
  /** The secret: never in a message, a log or an error. */
  readonly password: string | null;
  /** SMTP_URL as it may be shown: "smtps://digest:***@mail.example.org:465". */
  readonly shown: string;
}

export interface DigestAddress {
  readonly name: string;
  readonly address: string;
}

export interface DigestMailConfig {
  readonly smtp: SmtpSettings;
  readonly from: DigestAddress;
  /** One or more: a mailing list's address is what most sites want. */
  readonly to: readonly DigestAddress[];
  /**
   * DIGEST_UNSUBSCRIBE_URL: the List-Unsubscribe header (RFC 2369), and with
   * an https:// address List-Unsubscribe-Post for one-click unsubscribing
   * (RFC 8058); null: none.
   */
  readonly unsubscribe: { readonly url: string; readonly oneClick: boolean } | null;
}

/** What readDigestMailConfig reads. */
export const DIGEST_MAIL_SETTINGS = envSettings("Weekly digest", [
  "SMTP_URL",
  "DIGEST_FROM",
  "DIGEST_TO",
  "DIGEST_UNSUBSCRIBE_URL",
]);

/** Everything this file reads. */
export const DIGEST_SETTINGS = [...DIGEST_DAY_SETTINGS, ...DIGEST_MAIL_SETTINGS];

/**
 * A digest is mailed to a list's address or a few people; past this many
 * recipients in one message a mailing list (or an RSS-to-email service, on
 * the digest's feed) is the tool, not a To: line every reader sees.
 */
export const MAX_RECIPIENTS = 50;

export function readDigestMailConfig(env: NodeJS.ProcessEnv): DigestMailConfig {
  return {
    smtp: readSmtpUrl(env.SMTP_URL),
    from: readFrom(env.DIGEST_FROM),
    to: readTo(env.DIGEST_TO),
    unsubscribe: readUnsubscribe(env.DIGEST_UNSUBSCRIBE_URL),
  };
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

const SMTP_EXAMPLE =
  "smtps://user:password@mail.example.org (TLS, port 465) or smtp://user:password@mail.example.org:587 (STARTTLS)";

function readSmtpUrl(raw: string | undefined): SmtpSettings {
  const value = raw?.trim();
  if (!value) {
    throw new ConfigError(
      `SMTP_URL is not set: the organization's mail server, e.g. ${SMTP_EXAMPLE}.`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The value is not echoed: it may hold the password.
    throw new ConfigError(
      `SMTP_URL: not a URL (expected e.g. ${SMTP_EXAMPLE}; the value is not shown, it may hold a password).`,
    );
  }
  const shown = shownUrl(url);
  const secure = url.protocol === "smtps:";
  if (!secure && url.protocol !== "smtp:") {
    throw new ConfigError(`SMTP_URL: expected smtp:// or smtps://, got ${shown}.`);
  }
  if (!url.hostname) throw new ConfigError(`SMTP_URL: names no server (${shown}).`);
  if ((url.pathname && url.pathname !== "/") || url.search || url.hash) {
    throw new ConfigError(
      `SMTP_URL: expected only a server, a port and the credentials, got a path or a query (${shown}).`,
    );
  }
  const user = url.username ? decoded(url.username) : null;
  const password = url.password ? decoded(url.password) : null;
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTls: !secure && !LOOPBACK.test(url.hostname),
    user,
    password,
    shown,
  };
}

/** The URL with the password as "***": what messages may show of SMTP_URL. */
function shownUrl(url: URL): string {
  const credentials = url.username ? `${url.username}${url.password ? ":***" : ""}@` : "";
  return `${url.protocol}//${credentials}${url.host}`;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Control characters would end a header line early (header injection). */
const CONTROL = /\p{Cc}/u;
const ADDRESS = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+$/u;

function readAddresses(name: string, raw: string | undefined, example: string): DigestAddress[] {
  const value = raw?.trim();
  if (!value) throw new ConfigError(`${name} is not set: e.g. ${example}.`);
  if (CONTROL.test(value))
    throw new ConfigError(`${name}: contains a line break or control character.`);
  const addresses = addressparser(value, { flatten: true });
  const bad = addresses.find((entry) => !ADDRESS.test(entry.address));
  if (addresses.length === 0 || bad) {
    throw new ConfigError(
      `${name}: "${bad?.address || value}" is not an e-mail address (expected e.g. ${example}).`,
    );
  }
  return addresses.map((entry) => ({ name: entry.name.trim(), address: entry.address }));
}

function readFrom(raw: string | undefined): DigestAddress {
  const [from, ...more] = readAddresses("DIGEST_FROM", raw, '"City Events" <events@example.org>');
  if (!from || more.length > 0) throw new ConfigError("DIGEST_FROM: expected one address.");
  return from;
}

function readTo(raw: string | undefined): DigestAddress[] {
  const to = readAddresses("DIGEST_TO", raw, "events-digest@lists.example.org");
  if (to.length > MAX_RECIPIENTS) {
    throw new ConfigError(
      `DIGEST_TO: ${to.length} addresses; at most ${MAX_RECIPIENTS} (use a mailing list's address, or an RSS-to-email service on the digest's feed).`,
    );
  }
  return to;
}

function readUnsubscribe(raw: string | undefined): DigestMailConfig["unsubscribe"] {
  const value = raw?.trim();
  if (!value) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  const ok =
    url !== null &&
    !CONTROL.test(value) &&
    ((url.protocol === "mailto:" && url.pathname.includes("@")) ||
      ((url.protocol === "https:" || url.protocol === "http:") && url.hostname !== ""));
  if (!url || !ok) {
    throw new ConfigError(
      `DIGEST_UNSUBSCRIBE_URL: "${value}" is not an https:// or mailto: address (expected e.g. https://lists.example.org/unsubscribe/events).`,
    );
  }
  // RFC 8058 section 3.1: one-click needs an HTTPS URI.
  return { url: url.href, oneClick: url.protocol === "https:" };
}
