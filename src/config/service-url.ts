import { ConfigError } from "../errors.ts";

/**
 * The address of a service the site notifies (a WebSub hub, an IndexNow
 * endpoint): https, or http on loopback only, for a local stand-in in tests;
 * never with credentials, which would end up in logs. `example` is what the
 * one-line error suggests.
 */
export function readServiceUrl(name: string, value: string, example: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  const loopback = url !== null && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (!url || !(url.protocol === "https:" || (url.protocol === "http:" && loopback))) {
    throw new ConfigError(`${name}: "${value}" is not an https:// URL (expected e.g. ${example}).`);
  }
  if (url.username || url.password) {
    throw new ConfigError(`${name}: must not contain credentials.`);
  }
  return url.href;
}
