import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PublisherError } from "../errors.ts";
import {
  BUILD_STATE_PATH,
  type BuildState,
  type CalendarVersions,
  parseBuildState,
  parseCalendarVersions,
} from "./build-state.ts";

/**
 * Reads the build state a site published: from its output folder (`_site`, a
 * self-hosted server) or from its public address (Netlify, GitHub Pages).
 * Every failure is one BuildStateError whose message says where it looked
 * and what to do.
 */

export class BuildStateError extends PublisherError {
  override name = "BuildStateError";
}

export interface PublishedSite {
  /** A folder or an http(s) site address (without the /api/... part). */
  readonly location: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly timeoutMs?: number;
}

export const BUILD_STATE_TIMEOUT_MS = 10_000;

export async function readBuildState(site: PublishedSite): Promise<BuildState> {
  const parsed = parseBuildState(await readJson(site, BUILD_STATE_PATH));
  if (typeof parsed === "string") {
    throw new BuildStateError(
      `The build state ${where(site, BUILD_STATE_PATH)} is unusable (${parsed}); deploy once by hand to publish a new one.`,
    );
  }
  return parsed;
}

export async function readCalendarVersions(
  site: PublishedSite,
  path: string,
): Promise<CalendarVersions> {
  if (!/^\/api\/build-state\/[^/]+\.json$/.test(path)) {
    throw new BuildStateError(`The build state names an unexpected file "${path}".`);
  }
  const parsed = parseCalendarVersions(await readJson(site, path));
  if (typeof parsed === "string") {
    throw new BuildStateError(`${where(site, path)} is unusable (${parsed}).`);
  }
  return parsed;
}

export function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

function where(site: PublishedSite, path: string): string {
  return isUrl(site.location)
    ? `${site.location.replace(/\/+$/, "")}${path}`
    : join(site.location, path);
}

async function readJson(site: PublishedSite, path: string): Promise<unknown> {
  const target = where(site, path);
  let text: string;
  if (isUrl(site.location)) {
    const fetch = site.fetch ?? globalThis.fetch;
    const timeoutMs = site.timeoutMs ?? BUILD_STATE_TIMEOUT_MS;
    let response: Response;
    try {
      response = await fetch(target, {
        headers: { accept: "application/json", "cache-control": "no-cache" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === "TimeoutError"
          ? `no answer within ${timeoutMs / 1000} s`
          : "unreachable";
      throw new BuildStateError(`Cannot read the build state: ${target} ${reason}.`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new BuildStateError(
        response.status === 404
          ? `${target} does not exist (HTTP 404): the site was not built by this version yet; deploy once by hand.`
          : `Cannot read the build state: ${target} answered HTTP ${response.status}.`,
      );
    }
    text = await response.text();
  } else {
    try {
      text = await readFile(target, "utf8");
    } catch {
      throw new BuildStateError(
        `Cannot read the build state ${target}; build the site once (npm run build) first.`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new BuildStateError(`The build state ${target} is not JSON.`);
  }
}
