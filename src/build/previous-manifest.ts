import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ManifestCounts, parseManifestCounts } from "./shrink-guard.ts";

/**
 * Finds the manifest of the site this build is about to replace: the local
 * output folder first (self-hosted and repeated local builds), else the live
 * site at SITE_URL (Netlify and CI start from a clean checkout). Nothing found
 * means a first build, which the shrink guard lets through; every outcome is
 * one log line so the build log says what the guard compared against.
 */
export interface PreviousManifestOptions {
  readonly siteUrl: string;
  readonly outputDir: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly timeoutMs?: number;
  /**
   * SITE_URL on localhost/127.0.0.1/[::1] is not fetched by default: that is
   * the unconfigured default or a dev server, never the published site.
   */
  readonly fetchLoopback?: boolean;
  /**
   * Where the published manifest is, when not at SITE_URL (PREVIOUS_MANIFEST_URL);
   * "none" compares only with the local output folder.
   */
  readonly remoteUrl?: string;
  readonly log?: (line: string) => void;
}

export interface PreviousManifest {
  readonly manifest: ManifestCounts | null;
  readonly source: string;
}

export const MANIFEST_PATH = "api/manifest.json";
export const PREVIOUS_MANIFEST_TIMEOUT_MS = 10_000;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export async function loadPreviousManifest(
  options: PreviousManifestOptions,
): Promise<PreviousManifest> {
  const log = options.log ?? ((line: string) => console.log(line));
  const local = join(options.outputDir, MANIFEST_PATH);
  const localText = await readFile(local, "utf8").catch(() => null);
  if (localText !== null) {
    const found = parse(localText, local, log, options.siteUrl);
    if (found) return found;
  }

  if (options.remoteUrl === "none") {
    return none(`no ${local}, and PREVIOUS_MANIFEST_URL=none`, log);
  }
  const url = options.remoteUrl || `${trimSlash(options.siteUrl)}/${MANIFEST_PATH}`;
  const host = safeHost(url);
  if (host === null)
    return none(`${options.remoteUrl ? "PREVIOUS_MANIFEST_URL" : "SITE_URL"} is not a URL`, log);
  if (LOOPBACK.has(host) && !options.fetchLoopback) {
    return none(`no ${local}, and SITE_URL is local, so nothing published to compare with`, log);
  }
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? PREVIOUS_MANIFEST_TIMEOUT_MS;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${timeoutMs / 1000} s`
        : "unreachable";
    return none(`${url} ${reason}; treating this as a first build`, log);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const what = response.status === 404 ? "not published yet" : `HTTP ${response.status}`;
    return none(`${url} ${what}; treating this as a first build`, log);
  }
  const text = await response.text().catch(() => null);
  if (text === null) return none(`${url} could not be read; treating this as a first build`, log);
  return parse(text, url, log) ?? { manifest: null, source: "none" };
}

function parse(
  text: string,
  source: string,
  log: (line: string) => void,
  expectedSiteUrl?: string,
): PreviousManifest | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    log(`previous manifest: ${source} is not JSON; ignored`);
    return null;
  }
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

function safeHost(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
