import { readSiteConfig, SITE_SETTINGS } from "../config/site.ts";
import { pingHub } from "../rebuild/websub-ping.ts";
import { defineCommand } from "./command-line.ts";
import { PUBLISHED_OPTION, publishedLocation } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * `npm run ping-hub [-- --published <folder or URL>]`: after a deploy, pings
 * WEBSUB_HUB once for each feed the deployed build changed (docs/deploy.md).
 * Run it after the deploy, against the deployed site (default SITE_URL).
 */
const PING_HUB = defineCommand({
  run: "npm run ping-hub",
  summary:
    "After a deploy, pings WEBSUB_HUB once for each feed the deployed build changed; run it against the deployed site.",
  options: PUBLISHED_OPTION,
  settings: SITE_SETTINGS,
});

runCli(PING_HUB, async ({ values }) => {
  const site = readSiteConfig(process.env);
  const published = publishedLocation(values.published, process.env, "deployed site");
  const result = await pingHub({
    hub: site.websubHub,
    published,
    log: (line) => console.log(line),
  });
  return result.ok ? 0 : 1;
});
