import { readSiteConfig } from "../config/site.ts";
import { pingHub } from "../rebuild/websub-ping.ts";
import { publishedOption } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * `npm run ping-hub [-- --published <folder or URL>]`: after a deploy, pings
 * WEBSUB_HUB once for each feed the deployed build changed (docs/deploy.md).
 * Run it after the deploy, against the deployed site (default SITE_URL).
 */
runCli(async () => {
  const site = readSiteConfig(process.env);
  const published = publishedOption(process.env, "deployed site");
  const result = await pingHub({
    hub: site.websubHub,
    published,
    log: (line) => console.log(line),
  });
  return result.ok ? 0 : 1;
});
