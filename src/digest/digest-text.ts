import { withinBudget } from "./digest-budget.ts";
import { type Digest, type DigestList, moreText } from "./digest-content.ts";

/**
 * The latest week's digest as plain text (`latest.txt`): the mail's
 * text/plain alternative (RFC 2046 section 5.1.4), for clients and readers
 * that do not show HTML, and what spam filters compare the HTML with. The
 * same lists as the HTML, each link written out after what it links, lines
 * ending in LF (the mailer writes CRLF on the wire).
 */
export function renderDigestText(digest: Digest, options: { maxBytes?: number } = {}): string {
  return withinBudget(digest, writeText, options.maxBytes);
}

function writeText(digest: Digest): string {
  const site = digest.scopeName ? `${digest.siteTitle} · ${digest.scopeName}` : digest.siteTitle;
  const lines = [site, digest.homeUrl, "", digest.subject, "", digest.intro];
  for (const section of digest.sections) lines.push("", ...sectionText(section, digest));
  lines.push(
    "",
    `${digest.labels.wholeWeek}: ${digest.weekUrl}`,
    "",
    "-- ",
    digest.labels.footer,
    `${digest.labels.follow}: ${digest.followUrl}`,
  );
  return `${lines.join("\n")}\n`;
}

function sectionText(list: DigestList, digest: Digest): string[] {
  const lines = [list.heading.toLocaleUpperCase(digest.lang)];
  for (const line of list.lines) {
    lines.push(`* ${line.title}${line.status ? ` (${line.status})` : ""}`);
    const meta = [line.when, line.place].filter(Boolean).join(" · ");
    if (meta) lines.push(`  ${meta}`);
    lines.push(`  ${line.url}`);
  }
  if (list.more > 0) {
    lines.push(`  ${moreText(list, digest.lang)}: ${list.moreUrl}`);
  }
  return lines;
}
