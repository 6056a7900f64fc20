import { describe, expect, it } from "vitest";
import {
  type HostPolicy,
  hostCheck,
  isPublicAddress,
  type LookupFunction,
  publicOnlyLookup,
} from "../../src/media/address-policy.ts";
import { ImageRefused } from "../../src/media/image-refused.ts";

const POLICY: HostPolicy = {
  allowOrigins: new Set(["http://127.0.0.1:8080"]),
  allowHosts: new Set(["images.intranet.example", "10.0.0.5", "::1"]),
};

/** A resolver answering from a table, as a name server would. */
function resolverOf(table: Record<string, string[]>): LookupFunction {
  return (hostname, _options, callback) => {
    const found = table[hostname] ?? [];
    callback(
      null,
      found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };
}

function lookUp(lookup: LookupFunction, hostname: string, all: boolean) {
  return new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) =>
    lookup(hostname, { all }, (error, address, family) => resolve({ error, address, family })),
  );
}

describe("address-policy", () => {
  it("should call only plain unicast addresses public, IPv4 written as IPv6 judged as IPv4", () => {
    const refused = [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "198.18.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "2001:db8::1",
      "not an address",
    ];
    const allowed = ["93.184.215.14", "8.8.8.8", "2001:4860:4860::8888", "::ffff:8.8.8.8"];
    expect(refused.filter(isPublicAddress)).toEqual([]);
    expect(allowed.filter((address) => !isPublicAddress(address))).toEqual([]);
  });

  it("should trust the portal's origin and the allowed hosts, refuse private addresses in the URL, and check the rest", () => {
    const check = (url: string) => {
      try {
        return hostCheck(new URL(url), POLICY);
      } catch (error) {
        return (error as ImageRefused).message;
      }
    };
    expect(check("http://127.0.0.1:8080/media/a.svg")).toBe("trusted");
    expect(check("http://127.0.0.1:6379/")).toBe(
      "127.0.0.1, a loopback address: not fetched (EVENT_IMAGE_ALLOW_HOSTS allows a host)",
    );
    expect(check("http://IMAGES.intranet.example:81/a.png")).toBe("trusted");
    expect(check("http://10.0.0.5/a.png")).toBe("trusted");
    expect(check("http://[::1]:9000/a.png")).toBe("trusted");
    expect(check("http://[::ffff:a9fe:a9fe]/latest/meta-data/")).toMatch(
      /^::ffff:a9fe:a9fe, a linkLocal address/,
    );
    expect(check("http://169.254.169.254/latest/meta-data/")).toMatch(
      /^169\.254\.169\.254, a linkLocal address/,
    );
    expect(check("https://images.example.org/a.png")).toBe("checked");
    expect(check("file:///etc/passwd")).toBe("not an http(s) URL (file:)");
  });

  it("should refuse a connection to a name with any address that is not public", async () => {
    const lookup = publicOnlyLookup(
      resolverOf({
        "public.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "rebound.example": ["93.184.215.14", "127.0.0.1"],
        "mapped.example": ["::ffff:192.168.0.1"],
        "empty.example": [],
      }),
    );
    const all = await lookUp(lookup, "public.example", true);
    expect(all.error).toBeNull();
    expect(all.address).toHaveLength(2);
    const one = await lookUp(lookup, "public.example", false);
    expect([one.address, one.family]).toEqual(["93.184.215.14", 4]);
    for (const [name, reason] of [
      ["rebound.example", "rebound.example resolves to 127.0.0.1, a loopback address"],
      ["mapped.example", "mapped.example resolves to ::ffff:192.168.0.1, a private address"],
      ["empty.example", "empty.example has no address"],
    ] as const) {
      const { error } = await lookUp(lookup, name, true);
      expect(error).toBeInstanceOf(ImageRefused);
      expect(error?.message.startsWith(reason)).toBe(true);
    }
  });
});
