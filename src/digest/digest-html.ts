import { inline } from "@css-inline/css-inline";
import { escapeHtml } from "../model/sanitize.ts";
import { withinBudget } from "./digest-budget.ts";
import { type Digest, type DigestLine, type DigestList, moreText } from "./digest-content.ts";
import { UNSUBSCRIBE_MARK, unsubscribeMeta, weekMeta } from "./digest-markers.ts";

/**
 * The latest week's digest as an HTML mail (`latest.html`): what
 * `npm run send-digest` sends, and what can be pasted into a newsletter
 * tool as code. Mail clients are not browsers, so it is written the way
 * they read it:
 *
 * - a table layout, 600 pixels at most, with the widths as attributes:
 *   Outlook on Windows (Word's engine) ignores CSS widths, floats and flex;
 * - styles inline, from the small stylesheet below, by css-inline: Gmail and
 *   others drop or rewrite <style> elements, never `style` attributes. The
 *   attributes Outlook reads where it ignores CSS are written with them:
 *   widths, the page's `bgcolor`, the lines' `valign` (docs/followers.md);
 * - dark mode in both ways clients have it: `color-scheme` tells those that
 *   honour it (Apple Mail, Outlook for Mac, iOS) that the mail has its own
 *   dark colours, which `@media (prefers-color-scheme: dark)` in the one
 *   <style> left gives them; clients that invert colours themselves (Gmail's
 *   and Outlook's apps) get a white background, near-black text and links
 *   of a middle blue, which stay readable inverted, and no background
 *   images or colours that would invert into mud;
 * - every link and image absolute (a mail has no address to resolve them
 *   against), every image with a text alternative (many clients block
 *   images until asked), no script, no form, no web font;
 * - within Gmail's clipping size (digest-budget.ts).
 *
 * The page carries the week it is about and its subject as its title, which
 * the sender reads, and a place for the list's unsubscribe link
 * (digest-markers.ts).
 */

/** Rules written into each element's `style` attribute. */
const INLINE_STYLES = `
body { margin: 0; padding: 0; background-color: #ffffff; color: #1f2328; }
.page { background-color: #ffffff; }
.container { width: 600px; max-width: 100%; }
.page, .container, td { font-family: Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2328; }
.header { padding: 24px 16px 8px 16px; }
.site { margin: 0 0 4px 0; font-size: 14px; color: #59636e; }
h1 { margin: 0 0 8px 0; font-size: 22px; line-height: 1.3; color: #1f2328; }
.intro { margin: 0; color: #1f2328; }
.section { padding: 12px 16px 4px 16px; }
h2 { margin: 0 0 4px 0; padding: 0 0 4px 0; font-size: 17px; line-height: 1.3; color: #1f2328; border-bottom: 1px solid #d1d9e0; }
.line { padding: 6px 0 6px 0; vertical-align: top; }
.thumb { padding: 6px 12px 6px 0; vertical-align: top; }
.thumb img { display: block; border: 0; width: 80px; }
a { color: #0a5fb0; text-decoration: underline; }
.title { font-weight: bold; }
.status { color: #b3261e; font-weight: bold; }
.meta { font-size: 14px; color: #59636e; }
.more { padding: 6px 0 6px 0; font-size: 14px; font-style: italic; }
.footer { padding: 16px 16px 24px 16px; font-size: 13px; color: #59636e; }
.footer p { margin: 8px 0 0 0; }
`;

/** The one <style> left in the mail: what only a client that keeps it can apply. */
const MEDIA_QUERIES = `
@media (prefers-color-scheme: dark) {
  body, .page, .container, td, h1, h2, .intro { background-color: #14181d !important; color: #e6e9ed !important; }
  a { color: #8cc4ff !important; }
  .site, .meta, .footer { color: #a9b2bc !important; }
  .status { color: #ff9f97 !important; }
  h2 { border-color: #3a424c !important; }
}
@media only screen and (max-width: 620px) {
  .container { width: 100% !important; }
}
`;

export interface DigestHtmlOptions {
  /** Largest size in bytes (default digest-budget.ts's DIGEST_MAX_BYTES). */
  readonly maxBytes?: number;
}

export function renderDigestHtml(digest: Digest, options: DigestHtmlOptions = {}): string {
  return withinBudget(digest, writeHtml, options.maxBytes);
}

function writeHtml(digest: Digest): string {
  const e = escapeHtml;
  const site = digest.scopeName
    ? `<a href="${e(digest.homeUrl)}">${e(digest.siteTitle)}</a> · ${e(digest.scopeName)}`
    : `<a href="${e(digest.homeUrl)}">${e(digest.siteTitle)}</a>`;
  const html = `<!DOCTYPE html>
<html lang="${e(digest.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<meta name="robots" content="noindex">
${weekMeta(digest.week.first)}
${unsubscribeMeta(digest.labels.unsubscribe)}
<title>${e(digest.subject)}</title>
<style>${MEDIA_QUERIES}</style>
</head>
<body>
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff">
<tr><td align="center">
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0">
<tr><td class="header">
<p class="site">${site}</p>
<h1>${e(digest.subject)}</h1>
<p class="intro">${e(digest.intro)}</p>
</td></tr>
${digest.sections.map((section) => sectionHtml(section, digest)).join("\n")}
<tr><td class="footer">
<p><a href="${e(digest.weekUrl)}">${e(digest.labels.wholeWeek)}</a></p>
<p>${e(digest.labels.footer)} <a href="${e(digest.followUrl)}">${e(digest.labels.follow)}</a></p>
${UNSUBSCRIBE_MARK}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  // The media queries' <style> stays as written; the rules go into the elements.
  return inline(html, { inlineStyleTags: false, keepStyleTags: true, extraCss: INLINE_STYLES });
}

function sectionHtml(list: DigestList, digest: Digest): string {
  const e = escapeHtml;
  // Pictures get a column of their own, in a list that has any: a column no
  // row starts a cell in is an error in HTML's table model.
  const span = list.lines.some((line) => line.image) ? ' colspan="2"' : "";
  const rows = list.lines.map((line) => lineHtml(line, span));
  if (list.more > 0) {
    rows.push(
      `<tr><td class="more"${span}><a href="${e(list.moreUrl)}">${e(moreText(list, digest.lang))}</a></td></tr>`,
    );
  }
  return `<tr><td class="section">
<h2>${e(list.heading)}</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${rows.join("\n")}
</table>
</td></tr>`;
}

/** A line: its picture, if it has one, beside its text; `span` the text's columns when it has none. */
function lineHtml(line: DigestLine, span: string): string {
  const e = escapeHtml;
  const meta = [line.when, line.place].filter(Boolean).map((part) => e(part ?? ""));
  const text = [
    `<a class="title" href="${e(line.url)}">${e(line.title)}</a>`,
    line.status ? ` <span class="status">${e(line.status)}</span>` : "",
    meta.length ? `<br><span class="meta">${meta.join(" · ")}</span>` : "",
  ].join("");
  if (!line.image) return `<tr><td class="line" valign="top"${span}>${text}</td></tr>`;
  const image = `<img src="${e(line.image.url)}" alt="${e(line.image.alt)}" width="80">`;
  return `<tr><td class="thumb" width="80" valign="top">${image}</td><td class="line" valign="top">${text}</td></tr>`;
}
