import { readSiteConfig, SITE_SETTINGS } from "../config/site.ts";
import { pingHub } from "../rebuild/websub-ping.ts";
import { runAfterDeployCommand } from "./after-deploy-command.ts";

/**
 * `npm run ping-hub [-- --published <folder or URL>]`: after a deploy, pings
 * WEBSUB_HUB once for each feed the deployed build changed (docs/deploy.md).
 * Run it after the deploy, against the deployed site (default SITE_URL).
 */
runAfterDeployCommand(
  {
    run: "npm run ping-hub",
    summary:
      "After a deploy, pings WEBSUB_HUB once for each feed the deployed build changed; run it against the deployed site.",
    settings: SITE_SETTINGS,
  },
  (env) => readSiteConfig(env).websubHub,
  (hub, deploy) => pingHub({ hub, ...deploy }),
);
