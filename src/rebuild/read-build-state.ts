import { PublishedFileMissing, type PublishedSite } from "../api/published-site.ts";
import { PublisherError } from "../errors.ts";
import { paths } from "../model/url-scheme.ts";
import {
  type BuildState,
  type CalendarVersions,
  parseBuildState,
  parseCalendarVersions,
} from "./build-state.ts";

/**
 * Reads the build state a site published, from its output folder or its
 * address (src/api/published-site.ts). Every failure is one BuildStateError
 * whose message says where it looked and what to do.
 */

export class BuildStateError extends PublisherError {
  override name = "BuildStateError";
}

export async function readBuildState(site: PublishedSite): Promise<BuildState> {
  const path = paths.buildState();
  const parsed = parseBuildState(await readJson(site, path));
  if (typeof parsed === "string") {
    throw new BuildStateError(
      `The build state ${site.where(path)} is unusable (${parsed}); deploy once by hand to publish a new one.`,
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
    throw new BuildStateError(`${site.where(path)} is unusable (${parsed}).`);
  }
  return parsed;
}

async function readJson(site: PublishedSite, path: string): Promise<unknown> {
  try {
    return await site.readJson(path);
  } catch (error) {
    const target = site.where(path);
    if (error instanceof PublishedFileMissing) {
      throw new BuildStateError(
        site.remote
          ? `${target} does not exist (HTTP 404): is ${site.location} the published site (check SITE_URL or --published)? If it is, it was not built by this version yet; deploy once by hand.`
          : `${target} does not exist: is ${site.location} the output folder of a build (check --published)? If it is, build the site once (npm run build) first.`,
        { cause: error },
      );
    }
    const message = (error as Error).message.replace(/\.$/, "");
    // Nothing answers at that address at all: most likely it is mistyped.
    const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
    const hint = ["ENOTFOUND", "ECONNREFUSED", "EAI_AGAIN"].includes(String(code))
      ? "; is --published (or SITE_URL) the published site's address?"
      : ".";
    throw new BuildStateError(`Cannot read the build state: ${message}${hint}`, { cause: error });
  }
}
