import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { ImageRefused } from "./image-refused.ts";

/**
 * Which hosts the build may download an event image from. A portal names
 * any URL it likes; fetched from the build machine, a URL of its own network
 * (a cloud's metadata service at 169.254.169.254, a router's admin page, a
 * database on loopback) would be read with the build's network position and
 * published under /media/. So every host must resolve to public unicast
 * addresses only, checked on the addresses the connection is made to (not a
 * second lookup that could answer differently), for every address a name
 * resolves to, IPv4 and IPv6 alike; an IPv4 address written as IPv6
 * (`::ffff:127.0.0.1`, RFC 4291 2.5.5) is judged as the IPv4 address it is.
 *
 * Trusted without the check: the portal's own origin (the build already
 * talks to it; the reference portal runs on loopback) and the hosts of
 * EVENT_IMAGE_ALLOW_HOSTS (src/config/images.ts).
 */
export interface HostPolicy {
  /** Origins ("http://127.0.0.1:8080") trusted as they are: the portal's. */
  readonly allowOrigins: ReadonlySet<string>;
  /** Host names and IP addresses trusted on any port (EVENT_IMAGE_ALLOW_HOSTS). */
  readonly allowHosts: ReadonlySet<string>;
}

/** What a download does with a URL's host. */
export type HostCheck = "trusted" | "checked";

/**
 * Whether an address is one of the public internet's: ipaddr.js knows the
 * special-purpose ranges (RFC 6890: private, loopback, link-local, shared,
 * unique local, multicast, documentation, NAT64 and 6to4 prefixes that can
 * hide any IPv4 address...), and everything but plain unicast is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

/** A URL's host without the brackets of an IPv6 literal, in lower case. */
function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
}

/**
 * How a download goes to this URL: trusted, or checked at connection time.
 * An address written in the URL is judged here, since no lookup happens for it.
 */
export function hostCheck(url: URL, policy: HostPolicy): HostCheck {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ImageRefused(`not an http(s) URL (${url.protocol})`, "refused");
  }
  const host = hostOf(url);
  if (policy.allowOrigins.has(url.origin) || policy.allowHosts.has(host)) return "trusted";
  if (isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new ImageRefused(refusal(host, host), "refused");
  }
  return "checked";
}

/** The signature of Node's `dns.lookup` with options, as `net.connect` calls it. */
export type LookupFunction = (
  hostname: string,
  options: { family?: number | string; all?: boolean; hints?: number },
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void,
) => void;

/**
 * A `lookup` for connections (undici passes it to `net.connect`) that
 * resolves every address of a name and refuses the connection when any of
 * them is not public: a name with one public and one private address could
 * otherwise be dialled at either. `resolve` is the system's resolver; tests
 * give one that answers what they need.
 */
export function publicOnlyLookup(
  resolve: LookupFunction = dnsLookup as LookupFunction,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, []);
      const addresses = found as LookupAddress[];
      const bad = addresses.find((entry) => !isPublicAddress(entry.address));
      if (bad || addresses.length === 0) {
        const reason = bad ? refusal(hostname, bad.address) : `${hostname} has no address`;
        return callback(new ImageRefused(reason, "refused") as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

function refusal(host: string, address: string): string {
  const range = ipaddr.isValid(address) ? ipaddr.process(address).range() : "invalid";
  const where = host === address ? address : `${host} resolves to ${address}`;
  return `${where}, a ${range} address: not fetched (EVENT_IMAGE_ALLOW_HOSTS allows a host)`;
}
