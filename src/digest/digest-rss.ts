import { Feed } from "feed";
import type { SiteConfig } from "../config/site.ts";
import { messagesFor, translate } from "../i18n/messages.ts";
import { escapeHtml } from "../model/sanitize.ts";
import { absoluteUrl, type DigestScope, digestFiles } from "../model/url-scheme.ts";
import { cdataHtml, textNode, xmlAttr, xmlText } from "../outputs/feed-xml.ts";
import { digestFeedTitle } from "../outputs/feeds-urls.ts";
import { rssCharacterData, rssText } from "../outputs/rss-character-data.ts";
import { type Digest, type DigestList, moreText } from "./digest-content.ts";

/**
 * A scope's digest as RSS 2.0 (`digest/feed.xml`): one item per week, the
 * newest first, for RSS-to-email services (Mailchimp, MailerLite,
 * Buttondown, listmonk through its API) and feed readers.
 *
 * Those services send each item once, by its guid, and some by its date:
 * a week's guid is the digest's address with the week's first day
 * (`…/digest/#week-2026-03-23`, isPermaLink="false"), the same in every
 * build, and its date is when the digest came out (digest-week.ts), never
 * the build's clock. Its link is the week on the site (the search, filtered
 * to its days and scope), different for every week, as some readers tell
 * items apart by link. Its description is the digest as HTML in CDATA,
 * headings and lists without styles: the services put it into their own
 * mail template, and readers show it as an article.
 */

export interface DigestFeedOptions {
  readonly site: Pick<SiteConfig, "url" | "title" | "lang" | "refreshMinutes" | "websubHub">;
  readonly scope: DigestScope;
}

const FEED_GENERATOR = "Event Calendar Publisher";

/** `digests`: the scope's, newest first (digests.ts). */
export function renderDigestRss(digests: readonly Digest[], options: DigestFeedOptions): string {
  const { site, scope } = options;
  const files = digestFiles(scope);
  const self = absoluteUrl(site.url, files.rss);
  const newest = digests[0];
  const feed = new Feed({
    // Plain text throughout (channel title and description, item titles), in
    // the RSS Best Practices Profile's form, as the event feeds write it.
    title: textNode(digestFeedTitle(scope, site)),
    id: self,
    link: newest?.homeUrl ?? site.url,
    description: textNode(translate(messagesFor(site.lang), "digestFeedDescription")),
    language: site.lang,
    ttl: site.refreshMinutes,
    // The newest week's date: a rebuild of the same weeks writes the same feed.
    updated: new Date(newest?.week.publishedAt ?? 0),
    generator: FEED_GENERATOR,
    feedLinks: { rss: self },
    // The deploy pings the hub for every feed.xml it changed, this one included (docs/deploy.md, "WebSub").
    ...(site.websubHub ? { hub: xmlAttr(site.websubHub) } : {}),
  });
  for (const digest of digests) {
    feed.addItem({
      id: `${absoluteUrl(site.url, files.folder)}#week-${digest.week.first}`,
      title: rssText(xmlText(digest.subject)),
      link: digest.weekUrl,
      date: new Date(digest.week.publishedAt),
      description: cdataHtml(itemHtml(digest)),
    });
  }
  return `${rssCharacterData(feed.rss2())}\n`;
}

/** The digest as an article: the intro, a heading and a list per section, the links out. */
function itemHtml(digest: Digest): string {
  const e = escapeHtml;
  const parts = [`<p>${e(digest.intro)}</p>`];
  for (const section of digest.sections) parts.push(sectionHtml(section, digest));
  parts.push(`<p><a href="${e(digest.weekUrl)}">${e(digest.labels.wholeWeek)}</a></p>`);
  return parts.join("\n");
}

function sectionHtml(list: DigestList, digest: Digest): string {
  const e = escapeHtml;
  const items = list.lines.map((line) => {
    const meta = [line.when, line.place].filter(Boolean).map((part) => e(part ?? ""));
    const status = line.status ? ` <strong>${e(line.status)}</strong>` : "";
    return `<li><a href="${e(line.url)}">${e(line.title)}</a>${status}${meta.length ? `<br>${meta.join(" · ")}` : ""}</li>`;
  });
  if (list.more > 0) {
    items.push(`<li><a href="${e(list.moreUrl)}">${e(moreText(list, digest.lang))}</a></li>`);
  }
  return `<h2>${e(list.heading)}</h2>\n<ul>\n${items.join("\n")}\n</ul>`;
}
