import { ConfigError } from "../errors.ts";
import type { OptionSpecs } from "./command-line.ts";

/**
 * `--published <folder or URL>`: where the published site is, for the
 * commands that read what it was built from (rebuild-if-changed, ping-hub);
 * SITE_URL when not given.
 */
export const PUBLISHED_OPTION = {
  published: {
    type: "string",
    value: "<folder or URL>",
    meaning: "where the published site is (default SITE_URL)",
  },
} as const satisfies OptionSpecs;

export function publishedLocation(
  option: string | undefined,
  env: NodeJS.ProcessEnv,
  what: string,
): string {
  const published = option?.trim() || env.SITE_URL?.trim();
  if (!published) {
    throw new ConfigError(
      `Where is the ${what}? Set SITE_URL or pass --published <folder or URL>.`,
    );
  }
  return published;
}
