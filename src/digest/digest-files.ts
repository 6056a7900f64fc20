import type { SiteConfig } from "../config/site.ts";
import { DIGEST_FILE_NAMES, digestFiles } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup } from "../render/file-group.ts";
import type { Digest, DigestSite } from "./digest-content.ts";
import { renderDigestHtml } from "./digest-html.ts";
import { renderDigestRss } from "./digest-rss.ts";
import { renderDigestText } from "./digest-text.ts";
import { type DigestData, Digests } from "./digests.ts";

/**
 * The weekly digest's files (docs/followers.md, "Weekly email digest"): for
 * the whole site, each calendar and each category, its feed (one item a
 * week) and the latest week as a mail, HTML and text. Each names its inputs,
 * what its scope's digests are made from (Digests.inputs) and the settings
 * its writer reads, so a digest whose week, events and changes are those of
 * the last publish is neither made nor rendered again (FileWriter.write).
 */
export function digestFileGroups(
  data: DigestData,
  site: DigestSite & Pick<SiteConfig, "refreshMinutes" | "websubHub">,
): readonly FileGroup[] {
  const digests = new Digests(data, site);
  const { url, title, lang, refreshMinutes, websubHub } = site;
  const feedSite = { url, title, lang, refreshMinutes, websubHub };
  return [
    fileGroup({
      phase: "digest",
      name: "digest/feed.xml",
      items: digests.scopes,
      path: (scope) => digestFiles(scope).rss,
      inputs: (scope) => JSON.stringify(["rss", feedSite, digests.inputs(scope)]),
      render: (scope) => renderDigestRss(digests.of(scope), { site: feedSite, scope }),
    }),
    latestWeek(digests, "html", renderDigestHtml),
    // The last group to read the digests.
    { ...latestWeek(digests, "text", renderDigestText), done: () => digests.clear() },
  ];
}

/** The latest week's mail of each scope in one of its forms, HTML or text (latest.html, latest.txt). */
function latestWeek(
  digests: Digests,
  form: "html" | "text",
  render: (digest: Digest) => string,
): FileGroup {
  return fileGroup({
    phase: "digest",
    name: `digest/${DIGEST_FILE_NAMES[form]}`,
    items: digests.scopes,
    path: (scope) => digestFiles(scope)[form],
    inputs: (scope) => JSON.stringify([form, digests.inputs(scope)]),
    render: (scope) => render(digests.latest(scope)),
  });
}
