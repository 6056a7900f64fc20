import { createHash } from "node:crypto";
import type { SendMailOptions } from "nodemailer";
import type { DigestMailConfig } from "../config/digest.ts";
import { escapeHtml } from "../model/sanitize.ts";
import { type DigestScope, digestFiles } from "../model/url-scheme.ts";
import { UNSUBSCRIBE_MARK } from "./digest-markers.ts";
import type { PublishedDigest } from "./published-digest.ts";

/**
 * The mail of one week's digest: multipart/alternative with the text first
 * and the HTML last (RFC 2046 section 5.1.4: the richer one last), the
 * published subject, the list's unsubscribe address in the headers (RFC
 * 2369 List-Unsubscribe; RFC 8058 List-Unsubscribe-Post for an https://
 * address, which the SMTP server's DKIM signature must cover) and in the
 * footer, and a Message-ID of its own per week, scope and list.
 */

export interface DigestMessageInput {
  readonly digest: PublishedDigest;
  readonly scope: DigestScope;
  readonly mail: DigestMailConfig;
  /** SITE_URL: the Message-ID's right-hand side is its host. */
  readonly siteUrl: string;
  /** The Date header. */
  readonly now: Date;
}

export function digestMessage(input: DigestMessageInput): SendMailOptions & { messageId: string } {
  const { digest, mail } = input;
  const unsubscribe = mail.unsubscribe;
  const label = digest.unsubscribeLabel;
  return {
    from: mail.from,
    to: [...mail.to],
    subject: digest.subject,
    date: input.now,
    messageId: digestMessageId(input),
    text: unsubscribe ? `${digest.text.trimEnd()}\n${label}: ${unsubscribe.url}\n` : digest.text,
    html: unsubscribe ? withUnsubscribeLink(digest.html, unsubscribe.url, label) : digest.html,
    // RFC 3834: no vacation or out-of-office answers to a digest.
    headers: {
      "Auto-Submitted": "auto-generated",
      ...(unsubscribe?.oneClick ? { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
    },
    ...(unsubscribe ? { list: { unsubscribe: unsubscribe.url } } : {}),
  };
}

/**
 * `<2026-03-23.calendars.culture.digest.1f0c9a4b7e2d@events.example.org>`:
 * the week, the scope's digest folder and a digest of the sender and
 * recipients, so the same week to the same list always has the same ID
 * (a retried run is recognized: sent-record.ts), and another list or scope
 * another. RFC 5322 section 3.6.4: dot-atom text on both sides.
 */
export function digestMessageId(
  input: Pick<DigestMessageInput, "digest" | "scope" | "mail" | "siteUrl">,
): string {
  const folder = digestFiles(input.scope)
    .folder.split("/")
    .filter(Boolean)
    .join(".")
    .replace(/[^A-Za-z0-9._-]/g, "-");
  const who = [input.mail.from, ...input.mail.to]
    .map((address) => address.address.toLowerCase())
    .join("\n");
  const list = createHash("sha256").update(who).digest("hex").slice(0, 12);
  const host = new URL(input.siteUrl).hostname.replace(/^\[|\]$/g, "") || "localhost";
  return `<${input.digest.week}.${folder}.${list}@${host}>`;
}

function withUnsubscribeLink(html: string, url: string, label: string): string {
  const link = `<p style="margin: 8px 0 0 0;"><a href="${escapeHtml(url)}" style="color: #0a5fb0; text-decoration: underline;">${escapeHtml(label)}</a></p>`;
  if (html.includes(UNSUBSCRIBE_MARK)) return html.replace(UNSUBSCRIBE_MARK, link);
  return html.replace(/<\/body>/i, `${link}\n</body>`);
}
