import { isIP } from "node:net";
import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";

/**
 * EVENT_IMAGE_ALLOW_HOSTS: hosts the build may download event images from
 * although they resolve to a private, loopback or link-local address
 * (src/media/address-policy.ts). Every other image host must resolve to
 * public addresses only, so that a portal cannot make the build machine
 * fetch from its own network (a cloud's metadata service at 169.254.169.254,
 * an admin page on the office network) and publish the answer.
 *
 * The portal's own origin needs no entry: the build already talks to it, so
 * the reference portal on loopback (the demo, the tests) keeps working.
 */
export interface ImagesConfig {
  /** Host names and IP addresses, lower case, IPv6 without brackets. */
  readonly allowHosts: readonly string[];
}

/** What readImagesConfig reads. */
export const IMAGES_SETTINGS = envSettings("API", ["EVENT_IMAGE_ALLOW_HOSTS"]);

/** A host name: labels of letters, digits and hyphens, joined by dots. */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

export function readImagesConfig(env: NodeJS.ProcessEnv): ImagesConfig {
  const raw = env.EVENT_IMAGE_ALLOW_HOSTS?.trim() ?? "";
  const allowHosts = raw
    .split(",")
    .map((host) =>
      host
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, "$1"),
    )
    .filter((host) => host.length > 0);
  for (const host of allowHosts) {
    if (isIP(host) === 0 && !HOST_NAME.test(host)) {
      throw new ConfigError(
        `EVENT_IMAGE_ALLOW_HOSTS: "${host}" is not a host name or IP address (expected e.g. images.intranet.example,10.0.0.5).`,
      );
    }
  }
  return { allowHosts: [...new Set(allowHosts)] };
}
