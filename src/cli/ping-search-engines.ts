import { INDEXNOW_SETTINGS, readIndexNowConfig } from "../config/indexnow.ts";
import { pingIndexNow } from "../rebuild/indexnow-ping.ts";
import { runAfterDeployCommand } from "./after-deploy-command.ts";

/**
 * `npm run ping-search-engines [-- --published <folder or URL>]`: after a
 * deploy, sends the pages the deployed build changed to IndexNow
 * (docs/followers.md, "Search engines"); on Netlify the deploy-succeeded
 * function does it. A command of its own beside `npm run ping-hub`: another
 * setting, another audience, and a host may want one without the other.
 */
runAfterDeployCommand(
  {
    run: "npm run ping-search-engines",
    summary:
      "After a deploy, sends the pages the deployed build changed to IndexNow (INDEXNOW_KEY); run it against the deployed site.",
    settings: INDEXNOW_SETTINGS,
  },
  readIndexNowConfig,
  (indexNow, deploy) => pingIndexNow({ indexNow, ...deploy }),
);
