import { INDEXNOW_SETTINGS, readIndexNowConfig } from "../config/indexnow.ts";
import { pingIndexNow } from "../rebuild/indexnow-ping.ts";
import { defineCommand } from "./command-line.ts";
import { PUBLISHED_OPTION, publishedLocation } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * `npm run ping-search-engines [-- --published <folder or URL>]`: after a
 * deploy, sends the pages the deployed build changed to IndexNow
 * (docs/followers.md, "Search engines"); on Netlify the deploy-succeeded
 * function does it. A command of its own beside `npm run ping-hub`: another
 * setting, another audience, and a host may want one without the other.
 */
const PING_SEARCH_ENGINES = defineCommand({
  run: "npm run ping-search-engines",
  summary:
    "After a deploy, sends the pages the deployed build changed to IndexNow (INDEXNOW_KEY); run it against the deployed site.",
  options: PUBLISHED_OPTION,
  settings: INDEXNOW_SETTINGS,
});

runCli(PING_SEARCH_ENGINES, async ({ values }) => {
  const indexNow = readIndexNowConfig(process.env);
  const published = publishedLocation(values.published, process.env, "deployed site");
  const result = await pingIndexNow({ indexNow, published, log: (line) => console.log(line) });
  return result.ok ? 0 : 1;
});
