import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";
import { readServiceUrl } from "./service-url.ts";

/**
 * IndexNow (https://www.indexnow.org/documentation): after a deploy, the
 * pages it changed are sent to the search engines that take part (Bing,
 * Yandex, Naver, Seznam and others share what one is sent; Google does not
 * take part). The key proves the site is ours: the build publishes it at
 * `/<key>.txt`, where an engine reads it before it trusts a submission. It is
 * not a secret: anyone can read that file. No key: no key file, nothing sent.
 */
export interface IndexNowConfig {
  /** INDEXNOW_KEY: 8 to 128 of a-z, A-Z, 0-9 and "-" (IndexNow's rule). */
  readonly key: string;
  /** INDEXNOW_ENDPOINT: where the changed pages are sent. */
  readonly endpoint: string;
}

/** What readIndexNowConfig reads. */
export const INDEXNOW_SETTINGS = envSettings("Build and deploy", [
  "INDEXNOW_KEY",
  "INDEXNOW_ENDPOINT",
]);

/** The shared endpoint: an engine that takes a submission passes it on to the others. */
export const DEFAULT_INDEXNOW_ENDPOINT = "https://api.indexnow.org/indexnow";

const KEY = /^[a-zA-Z0-9-]{8,128}$/;

/** The IndexNow settings, or null when INDEXNOW_KEY is not set. */
export function readIndexNowConfig(env: NodeJS.ProcessEnv): IndexNowConfig | null {
  const key = env.INDEXNOW_KEY?.trim();
  const endpoint = env.INDEXNOW_ENDPOINT?.trim();
  if (!key) {
    if (endpoint) {
      throw new ConfigError(
        "INDEXNOW_ENDPOINT is set but INDEXNOW_KEY is not: set both, or neither.",
      );
    }
    return null;
  }
  if (!KEY.test(key)) {
    throw new ConfigError(
      `INDEXNOW_KEY: expected 8 to 128 letters, digits or dashes (a-z, A-Z, 0-9, -), got ${key.length} characters${/[^a-zA-Z0-9-]/.test(key) ? " with others among them" : ""}.`,
    );
  }
  return {
    key,
    endpoint: endpoint
      ? readServiceUrl("INDEXNOW_ENDPOINT", endpoint, DEFAULT_INDEXNOW_ENDPOINT)
      : DEFAULT_INDEXNOW_ENDPOINT,
  };
}
