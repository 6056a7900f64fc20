import { parseArgs } from "node:util";
import { ConfigError } from "../errors.ts";

/**
 * `--published <folder or URL>`: where the published site is, for the
 * commands that read what it was built from (rebuild-if-changed, ping-hub);
 * SITE_URL when not given.
 */
export function publishedOption(env: NodeJS.ProcessEnv, what: string): string {
  const { values } = parseArgs({ options: { published: { type: "string" } } });
  const published = values.published?.trim() || env.SITE_URL?.trim();
  if (!published) {
    throw new ConfigError(
      `Where is the ${what}? Set SITE_URL or pass --published <folder or URL>.`,
    );
  }
  return published;
}
