import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFediverseConfig, readSigningKey } from "../../src/config/fediverse.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const pair = (bits = 2048) => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};
const keys = pair();

describe("fediverse settings", () => {
  it("should have no account without a key", () => {
    expect(readFediverseConfig({})).toBeNull();
    expect(readSigningKey({})).toBeNull();
  });

  it("should publish the public half of AP_PRIVATE_KEY, also written on one line with \\n", () => {
    const oneLine = keys.privatePem.trim().replace(/\n/g, "\\n");
    expect(readFediverseConfig({ AP_PRIVATE_KEY: oneLine })).toEqual({
      username: "events",
      publicKeyPem: keys.publicPem,
    });
  });

  it("should read the key from AP_PRIVATE_KEY_FILE, and take AP_PUBLIC_KEY alone for a build", () => {
    const file = join(tempDir(), "key.pem");
    writeFileSync(file, keys.privatePem);
    expect(readFediverseConfig({ AP_PRIVATE_KEY_FILE: file })?.publicKeyPem).toBe(keys.publicPem);
    expect(
      readFediverseConfig({ AP_PUBLIC_KEY: keys.publicPem, AP_USERNAME: "city_events" }),
    ).toEqual({ username: "city_events", publicKeyPem: keys.publicPem });
  });

  it("should name the variable of a mistake in one line, and never the key", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ AP_PRIVATE_KEY: "not a key" }, /^AP_PRIVATE_KEY: not a PEM key/],
      [{ AP_PRIVATE_KEY_FILE: "/nonexistent/key.pem" }, /^AP_PRIVATE_KEY_FILE: .* cannot be read/],
      [
        { AP_PRIVATE_KEY: keys.privatePem, AP_PUBLIC_KEY: pair().publicPem },
        /^AP_PUBLIC_KEY is not the public half/,
      ],
      [
        { AP_PRIVATE_KEY: pair(1024).privatePem },
        /^AP_PRIVATE_KEY: expected an RSA key of at least 2048 bits, got 1024 bits/,
      ],
      [
        { AP_PUBLIC_KEY: keys.publicPem, AP_USERNAME: "Events!" },
        /^AP_USERNAME: "Events!" cannot be a fediverse handle/,
      ],
    ];
    for (const [env, message] of cases) {
      let error: unknown;
      try {
        readFediverseConfig(env);
      } catch (caught) {
        error = caught;
      }
      expect((error as Error).name).toBe("ConfigError");
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("MII");
    }
  });
});
