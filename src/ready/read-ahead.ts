import type { BuildConfig } from "../config/build-config.ts";
import { siteInLanguage } from "../config/site.ts";
import { KeptReads } from "../model/kept-reads.ts";
import { RichResultsTally } from "../outputs/rich-results.ts";
import { VeventSizes } from "../outputs/vevent-sizes.ts";
import { fileListPath, readFileList } from "../publish/output-files.ts";
import { NormalizeMemo } from "../snapshot/normalize-memo.ts";

/**
 * The kept files a build of `config` into `target` reads back that take
 * the longest (docs/performance.md, "A build started ahead"): the
 * normalized events of its one portal, the last publish's list of files,
 * the root site's calendar-file sizes and its rich results, read now for
 * the build that starts when told to go. Those of a site of several
 * sources, and of a site's other languages, are read by the build, as are
 * the smaller ones. A file that cannot be read is the build's to find:
 * the reader already treats one as none kept.
 */
export function readAhead(config: BuildConfig, target: string): KeptReads {
  const reads = new KeptReads();
  const { site, portal } = config;
  reads.ahead(() => {
    const api =
      portal.kind === "portal" ? portal.api : portal.kind === "demo" ? portal.options : null;
    // What the file holds does not depend on the token: the memo redacts what it writes.
    if (api) {
      const options = { fieldMap: api.fieldMap, defaultTimeZone: site.timeZone };
      NormalizeMemo.load(api.cacheDir, options, (text) => text, undefined, reads);
    }
    const list = fileListPath(config, target);
    reads.kept(list, () => readFileList(list));
    const root = site.languages.find((language) => language.folder === "");
    const rootSite = root ? siteInLanguage(site, root) : site;
    VeventSizes.load(config.cacheDir, JSON.stringify([rootSite.url, rootSite.lang]), reads);
    RichResultsTally.load(config.cacheDir, reads);
  });
  return reads;
}
