import nodemailer from "nodemailer";
import { createRedactor } from "../api/auth.ts";
import { type DigestMailConfig, type SmtpSettings, WEEKDAY_NAMES } from "../config/digest.ts";
import type { SiteConfig } from "../config/site.ts";
import { DigestError, MailError } from "../errors.ts";
import { timeZone } from "../model/time-zone.ts";
import type { DigestScope } from "../model/url-scheme.ts";
import { isoWeekday } from "../site/when/ranges.ts";
import { digestMessage } from "./digest-message.ts";
import { type DigestWeekSite, digestWeekday, latestDigestWeek } from "./digest-week.ts";
import { readPublishedDigest } from "./published-digest.ts";
import { addSentEntry, readSentRecord } from "./sent-record.ts";

/**
 * `npm run send-digest` and the scheduled function (netlify/functions/weekly-digest.mts):
 * mails a scope's latest digest as the site published it (docs/followers.md,
 * "Weekly email digest").
 *
 * 1. With `scheduled`, only on DIGEST_DAY in SITE_TIMEZONE: the schedules run
 *    it every day, and it sends on one of them.
 * 2. The published digest must be of the week that is due by the settings
 *    (digest-week.ts): an older one means the site was not rebuilt since the
 *    digest came out, a newer one that the sender's DIGEST_DAY, SITE_LANG or
 *    SITE_TIMEZONE are not the build's. Either is one line and nothing sent:
 *    readers would get last week's events, or none.
 * 3. One Message-ID per week, scope and list (digest-message.ts); one found
 *    in the record of what was sent (sent-record.ts) is not sent again.
 * 4. The organization's SMTP server (SMTP_URL) takes it, or the run fails
 *    with one line naming the server without its password.
 */

export interface SendDigestOptions {
  readonly site: DigestWeekSite & Pick<SiteConfig, "url">;
  readonly mail: DigestMailConfig;
  /** The built site's folder, or its address. */
  readonly location: string;
  readonly scope: DigestScope;
  /** Send only on DIGEST_DAY (the schedules' runs). */
  readonly scheduled: boolean;
  /** The record of what was sent (sent-record.ts); null: none kept. */
  readonly record: string | null;
  readonly log: (line: string) => void;
  /** Time limit of reading the published site and of each SMTP step (default 20 s). */
  readonly timeoutMs?: number;
}

export interface SendDigestResult {
  /** Whether a message went out in this run. */
  readonly sent: boolean;
  readonly messageId: string | null;
  /** Recipients the server refused (the others got it). */
  readonly refused: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 20_000;

export async function sendDigest(options: SendDigestOptions): Promise<SendDigestResult> {
  const { site, log } = options;
  const nothing = { sent: false, messageId: null, refused: [] };
  if (options.scheduled) {
    const today = site.now.setZone(timeZone(site.timeZone)).toISODate() ?? "";
    const day = digestWeekday(site);
    if (isoWeekday(today) !== day) {
      log(
        `today (${today} in ${site.timeZone}) is a ${dayName(isoWeekday(today))}; the digest goes out on ${dayName(day)}s (DIGEST_DAY): nothing sent.`,
      );
      return nothing;
    }
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const due = latestDigestWeek(site);
  const digest = await readPublishedDigest(options.location, options.scope, { timeoutMs });
  if (digest.week !== due.first) {
    const published = `${digest.source} is the digest of the week from ${digest.week}`;
    throw new DigestError(
      digest.week < due.first
        ? `${published}, but the week from ${due.first} is due since ${due.publishedOn}: the site has not been built since; nothing sent.`
        : `${published}, ahead of the week from ${due.first} that is due: DIGEST_DAY, SITE_LANG or SITE_TIMEZONE differ from the build's; nothing sent.`,
    );
  }
  const message = digestMessage({
    digest,
    scope: options.scope,
    mail: options.mail,
    siteUrl: site.url,
    now: site.now.toJSDate(),
  });
  const { messageId } = message;
  if (options.record) {
    const before = (await readSentRecord(options.record)).find((e) => e.messageId === messageId);
    if (before) {
      log(
        `already sent: "${digest.subject}" went out at ${before.at} (${messageId}); nothing sent.`,
      );
      return { sent: false, messageId, refused: [] };
    }
  }
  const { accepted, refused } = await deliver(message, options.mail.smtp, timeoutMs);
  if (accepted.length === 0) {
    throw new MailError(
      `${options.mail.smtp.shown} refused every recipient (${refused.join(", ")}); nothing sent.`,
    );
  }
  log(
    `sent: "${digest.subject}" to ${accepted.length === 1 ? "1 recipient" : `${accepted.length} recipients`} through ${options.mail.smtp.shown} (${messageId})`,
  );
  if (refused.length > 0) log(`refused by the server: ${refused.join(", ")}`);
  if (options.record) {
    await addSentEntry(options.record, {
      messageId,
      week: digest.week,
      at: site.now.toUTC().toISO({ suppressMilliseconds: true }) ?? "",
    });
  }
  return { sent: true, messageId, refused };
}

function dayName(isoDay: number): string {
  const name = WEEKDAY_NAMES[isoDay - 1] ?? "";
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Hands the message to the SMTP server; what it took and refused. */
async function deliver(
  message: ReturnType<typeof digestMessage>,
  smtp: SmtpSettings,
  timeoutMs: number,
): Promise<{ accepted: string[]; refused: string[] }> {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? "" } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // Its log would show the conversation, the AUTH step among it.
    logger: false,
    debug: false,
  });
  const redact = smtp.password ? createRedactor(smtp.password) : (text: string) => text;
  try {
    const info = await transport.sendMail(message);
    const address = (entry: unknown) =>
      typeof entry === "string" ? entry : String((entry as { address?: unknown }).address ?? "");
    return {
      accepted: (info.accepted ?? []).map(address),
      refused: (info.rejected ?? []).map(address),
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MailError(
      `${smtp.shown} did not take the digest: ${redact(reason).replace(/\s+/g, " ").trim()}`,
    );
  } finally {
    transport.close();
  }
}
