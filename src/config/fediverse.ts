import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";

/**
 * The site's account in the fediverse (docs/followers.md, "The fediverse"):
 * its name and the RSA key its activities are signed with. The build needs
 * only the public half, for the actor it publishes; the Netlify functions
 * that sign (the inbox's Accept, the deliveries after a deploy) read the
 * private half (readSigningKey), which no build output, log or cache file
 * ever holds. No key: no account, and the build publishes no ActivityPub
 * files.
 */
export interface FediverseConfig {
  /** AP_USERNAME: the account is `acct:<username>@<host of SITE_URL>`. */
  readonly username: string;
  /** The public key (SubjectPublicKeyInfo PEM) the actor publishes. */
  readonly publicKeyPem: string;
}

/** What readFediverseConfig and readSigningKey read. */
export const FEDIVERSE_SETTINGS = envSettings("The fediverse", [
  "AP_USERNAME",
  "AP_PUBLIC_KEY",
  "AP_PRIVATE_KEY",
  "AP_PRIVATE_KEY_FILE",
]);

/**
 * Mastodon's rule for the local part of a handle (letters, digits and
 * underscores), in lower case so that the one file WebFinger answers with
 * matches however a reader writes it.
 */
const USERNAME = /^[a-z0-9_]{1,30}$/;
/** Below 2048 bits RSA is no longer considered safe (NIST SP 800-57 part 1, table 2). */
const MIN_RSA_BITS = 2048;

/** The account's settings, or null when no key is set (no fediverse account). */
export function readFediverseConfig(env: NodeJS.ProcessEnv): FediverseConfig | null {
  const username = readUsername(env.AP_USERNAME);
  const privateKey = readSigningKey(env);
  const publicText = pemSetting(env.AP_PUBLIC_KEY);
  if (!privateKey && !publicText) return null;
  let publicKey: KeyObject;
  if (publicText) {
    publicKey = parseKey("AP_PUBLIC_KEY", () => createPublicKey(publicText));
    checkRsa("AP_PUBLIC_KEY", publicKey);
    if (privateKey && !sameKey(publicKey, createPublicKey(privateKey))) {
      throw new ConfigError(
        "AP_PUBLIC_KEY is not the public half of AP_PRIVATE_KEY: set one of them, or the pair.",
      );
    }
  } else {
    publicKey = createPublicKey(privateKey as KeyObject);
  }
  return { username, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

/**
 * The private key that signs the account's activities: AP_PRIVATE_KEY (the
 * PEM itself) or AP_PRIVATE_KEY_FILE (a file holding it); null when neither
 * is set. A message about a bad key names the variable, never its content.
 */
export function readSigningKey(env: NodeJS.ProcessEnv): KeyObject | null {
  const inline = pemSetting(env.AP_PRIVATE_KEY);
  const file = env.AP_PRIVATE_KEY_FILE?.trim();
  if (inline && file) {
    throw new ConfigError("AP_PRIVATE_KEY and AP_PRIVATE_KEY_FILE are both set: set one of them.");
  }
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      throw new ConfigError(`AP_PRIVATE_KEY_FILE: ${file} cannot be read (${code}).`);
    }
    return privateKeyOf("AP_PRIVATE_KEY_FILE", text);
  }
  return inline ? privateKeyOf("AP_PRIVATE_KEY", inline) : null;
}

function privateKeyOf(name: string, pem: string): KeyObject {
  const key = parseKey(name, () => createPrivateKey(pem));
  checkRsa(name, key);
  return key;
}

/**
 * A PEM from a variable. Hosting panels that take one line only keep the
 * line breaks as the two characters "\n": read back as breaks.
 */
function pemSetting(raw: string | undefined): string | null {
  const value = raw?.trim();
  return value ? value.replace(/\\n/g, "\n") : null;
}

function parseKey(name: string, parse: () => KeyObject): KeyObject {
  try {
    return parse();
  } catch {
    throw new ConfigError(
      `${name}: not a PEM key (expected "-----BEGIN PRIVATE KEY-----" or "-----BEGIN PUBLIC KEY-----" and the lines after it; docs/followers.md says how to make one).`,
    );
  }
}

/**
 * Mastodon and most of the fediverse verify rsa-sha256 signatures only
 * (draft-cavage-http-signatures as Mastodon uses it), so the key is RSA.
 */
function checkRsa(name: string, key: KeyObject): void {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== "rsa" || bits < MIN_RSA_BITS) {
    throw new ConfigError(
      `${name}: expected an RSA key of at least ${MIN_RSA_BITS} bits, got ${key.asymmetricKeyType === "rsa" ? `${bits} bits` : `a ${key.asymmetricKeyType} key`}.`,
    );
  }
}

function sameKey(a: KeyObject, b: KeyObject): boolean {
  const der = (key: KeyObject) => key.export({ type: "spki", format: "der" });
  return der(a).equals(der(b));
}

function readUsername(raw: string | undefined): string {
  const value = raw?.trim() || "events";
  if (!USERNAME.test(value)) {
    throw new ConfigError(
      `AP_USERNAME: "${value}" cannot be a fediverse handle (expected 1 to 30 lower-case letters, digits or underscores, e.g. events).`,
    );
  }
  return value;
}
