import type { EnvSetting } from "../config/env-settings.ts";
import type { AfterDeployResult } from "../rebuild/after-deploy.ts";
import { defineCommand } from "./command-line.ts";
import { PUBLISHED_OPTION, publishedLocation } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * A step after a deploy run as a command (`npm run ping-hub`,
 * `npm run ping-search-engines`): its setting read first, then where the
 * deployed site is (--published, else SITE_URL); the step's lines go to
 * stdout, and the command exits 1 when the step failed.
 */
export function runAfterDeployCommand<S>(
  command: {
    readonly run: string;
    readonly summary: string;
    readonly settings: readonly EnvSetting[];
  },
  readSetting: (env: NodeJS.ProcessEnv) => S,
  step: (
    setting: S,
    deploy: { readonly published: string; readonly log: (line: string) => void },
  ) => Promise<AfterDeployResult>,
): void {
  runCli(defineCommand({ ...command, options: PUBLISHED_OPTION }), async ({ values }) => {
    const setting = readSetting(process.env);
    const published = publishedLocation(values.published, process.env, "deployed site");
    const result = await step(setting, { published, log: (line) => console.log(line) });
    return result.ok ? 0 : 1;
  });
}
