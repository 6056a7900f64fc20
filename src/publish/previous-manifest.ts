import { PublishedFileMissing, PublishedSite } from "../api/published-site.ts";
import { paths } from "../model/url-scheme.ts";
import { type ManifestCounts, parseManifestCounts } from "./shrink-guard.ts";

/**
 * Finds the manifest of the site this build is about to replace: the local
 * output folder first (self-hosted and repeated local builds), else the
 * published site (Netlify and CI start from a clean checkout). Nothing found
 * means a first build, which the shrink guard lets through; every outcome is
 * one log line so the build log says what the guard compared against.
 */
export interface PreviousManifestOptions {
  readonly siteUrl: string;
  readonly outputDir: string;
  /** The published site to read when the output folder has none (src/config/publish.ts); null: none. */
  readonly publishedSite: string | null;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface PreviousManifest {
  readonly manifest: ManifestCounts | null;
  readonly source: string;
}

export async function loadPreviousManifest(
  options: PreviousManifestOptions,
): Promise<PreviousManifest> {
  const log = options.log ?? ((line: string) => console.log(line));
  const local = new PublishedSite(options.outputDir);
  const path = paths.apiManifest();
  const localJson = await local.readJson(path).catch((error: Error) => {
    if (!(error instanceof PublishedFileMissing))
      log(`previous manifest: ${error.message} Ignored.`);
    return undefined;
  });
  if (localJson !== undefined) {
    const found = parse(localJson, local.where(path), log, options.siteUrl);
    if (found) return found;
  }
  if (options.publishedSite === null) {
    return none(`no ${local.where(path)}, and nothing published to compare with`, log);
  }
  const published = new PublishedSite(options.publishedSite, { timeoutMs: options.timeoutMs });
  const url = published.where(path);
  let json: unknown;
  try {
    json = await published.readJson(path);
  } catch (error) {
    const what =
      error instanceof PublishedFileMissing
        ? `${url} not published yet`
        : (error as Error).message.replace(/\.$/, "");
    return none(`${what}; treating this as a first build`, log);
  }
  return parse(json, url, log) ?? { manifest: null, source: "none" };
}

function parse(
  json: unknown,
  source: string,
  log: (line: string) => void,
  expectedSiteUrl?: string,
): PreviousManifest | null {
  // A local output built for another SITE_URL (say, the demo site) is not what is published.
  const builtFor = (json as { siteUrl?: unknown } | null)?.siteUrl;
  if (
    expectedSiteUrl !== undefined &&
    typeof builtFor === "string" &&
    trimSlash(builtFor) !== trimSlash(expectedSiteUrl)
  ) {
    log(`previous manifest: ${source} was built for ${builtFor}, not ${expectedSiteUrl}; ignored`);
    return null;
  }
  const result = parseManifestCounts(json);
  if ("problem" in result) {
    log(`previous manifest: ${source} is not a manifest (${result.problem}); ignored`);
    return null;
  }
  log(`previous manifest: ${source} (${result.manifest.totals.events} events)`);
  return { manifest: result.manifest, source };
}

function none(reason: string, log: (line: string) => void): PreviousManifest {
  log(`previous manifest: none (${reason})`);
  return { manifest: null, source: "none" };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
