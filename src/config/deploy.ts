import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";

/**
 * Where the site is published (DEPLOY_TARGET). The build writes the same site
 * for every host; the target only decides which host limits the build report
 * checks (src/publish/host-limits.ts) and which host files are written beside
 * the site (src/hosts/host-files.ts): the headers of netlify.toml as a
 * `_headers` file, or as a policy in each page where a host sends none.
 */
export const DEPLOY_TARGETS = [
  "netlify",
  "github-pages",
  "cloudflare-pages",
  "s3",
  "static",
] as const;

export type DeployTarget = (typeof DEPLOY_TARGETS)[number];

export interface DeployConfig {
  readonly target: DeployTarget;
}

/** What readDeployConfig reads. */
export const DEPLOY_SETTINGS = envSettings("Build and deploy", ["DEPLOY_TARGET"]);

export function readDeployConfig(env: NodeJS.ProcessEnv): DeployConfig {
  const raw = env.DEPLOY_TARGET?.trim().toLowerCase() || "netlify";
  if (!(DEPLOY_TARGETS as readonly string[]).includes(raw)) {
    throw new ConfigError(
      `DEPLOY_TARGET: "${env.DEPLOY_TARGET?.trim()}" is not a known host (expected ${DEPLOY_TARGETS.join(", ")}).`,
    );
  }
  return { target: raw as DeployTarget };
}
