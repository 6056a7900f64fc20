import { parseArgs } from "node:util";
import { readSiteConfig } from "../config/site.ts";
import { ConfigError } from "../errors.ts";
import { pingHub } from "../rebuild/websub-ping.ts";
import { runCli } from "./run.ts";

/**
 * `npm run ping-hub [-- --published <folder or URL>]`: after a deploy, pings
 * WEBSUB_HUB once for each feed the deployed build changed (docs/deploy.md).
 * Run it after the deploy, against the deployed site (default SITE_URL).
 */
runCli(async () => {
  const { values } = parseArgs({ options: { published: { type: "string" } } });
  const site = readSiteConfig(process.env);
  const published = values.published?.trim() || process.env.SITE_URL?.trim();
  if (!published) {
    throw new ConfigError(
      "Where is the deployed site? Set SITE_URL or pass --published <folder or URL>.",
    );
  }
  const result = await pingHub({
    hub: site.websubHub,
    published,
    log: (line) => console.log(line),
  });
  return result.ok ? 0 : 1;
});
