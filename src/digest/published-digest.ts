import { decodeHTML } from "entities";
import { PublishedSite } from "../api/published-site.ts";
import { DigestError } from "../errors.ts";
import { type DigestScope, digestFiles } from "../model/url-scheme.ts";
import { readUnsubscribeMeta, readWeekMeta } from "./digest-markers.ts";

/**
 * A scope's latest digest as a site published it (its built folder, or its
 * address): the HTML and text the mail carries, the subject (the page's
 * title) and the week it is about (digest-markers.ts), which
 * src/digest/digest-html.ts writes. Read through the one reader of a
 * published site (src/api/published-site.ts: time limit, retries, bounded
 * size).
 */

export interface PublishedDigest {
  readonly html: string;
  readonly text: string;
  readonly subject: string;
  /** The week's first day (yyyy-mm-dd). */
  readonly week: string;
  /** The unsubscribe link's text in the site's language. */
  readonly unsubscribeLabel: string;
  /** Where the HTML was read, for messages. */
  readonly source: string;
}

/**
 * A digest is kept under 100 KB (digest-budget.ts); a file ten times that
 * is not one this project wrote, and is not read further.
 */
const MAX_DIGEST_FILE_BYTES = 1_000_000;

const TITLE = /<title>([^<]{1,1000})<\/title>/;

export async function readPublishedDigest(
  location: string,
  scope: DigestScope,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PublishedDigest> {
  const site = new PublishedSite(location, options);
  const files = digestFiles(scope);
  const [html, text] = await Promise.all([
    site.readText(files.html, MAX_DIGEST_FILE_BYTES),
    site.readText(files.text, MAX_DIGEST_FILE_BYTES),
  ]);
  const source = site.where(files.html);
  const subject = TITLE.exec(html)?.[1];
  const week = readWeekMeta(html);
  if (!subject || !week) {
    throw new DigestError(
      `${source} is not a weekly digest this version writes (no title or digest-week): build the site again.`,
    );
  }
  const unsubscribe = readUnsubscribeMeta(html);
  return {
    html,
    text,
    subject: decodeHTML(subject).trim(),
    week,
    unsubscribeLabel: unsubscribe ? decodeHTML(unsubscribe) : "Unsubscribe",
    source,
  };
}
