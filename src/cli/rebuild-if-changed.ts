import { readApiConfig } from "../config/api.ts";
import { readShrinkGuardConfig } from "../config/publish.ts";
import { readSiteConfig } from "../config/site.ts";
import { rebuildIfChanged } from "../rebuild/rebuild-if-changed.ts";
import { publishedOption } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * `npm run rebuild-if-changed [-- --published <folder or URL>]`: asks the
 * portal whether anything changed since the published build and POSTs
 * BUILD_HOOK_URL if so (docs/deploy.md). Exit 0 whether or not it changed;
 * 1 with one line when it cannot tell, when the shrink guard would stop the
 * build (ALLOW_SHRINK=1 lets it through), or when the hook failed.
 */
runCli(async () => {
  const site = readSiteConfig(process.env);
  const published = publishedOption(process.env, "published site");
  const result = await rebuildIfChanged({
    config: readApiConfig(process.env),
    published,
    nowMs: site.now.toMillis(),
    hookUrl: process.env.BUILD_HOOK_URL,
    shrinkGuard: readShrinkGuardConfig(process.env),
    log: (line) => console.log(line),
  });
  return result.ok ? 0 : 1;
});
