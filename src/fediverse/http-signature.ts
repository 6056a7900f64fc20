import { createHash, createPublicKey, type KeyObject, sign, verify } from "node:crypto";
import { createSignatureString, parseRequest } from "@digitalbazaar/http-signature-header";

/**
 * HTTP Signatures as the fediverse uses them: draft-cavage-http-signatures-12
 * with `rsa-sha256`, the `Signature` header, and the body's SHA-256 in the
 * `Digest` header (RFC 3230), as Mastodon signs and verifies
 * (https://docs.joinmastodon.org/spec/security/#http). The signing string
 * (section 2.3) is the library's (@digitalbazaar/http-signature-header); the
 * RSA work is Node's.
 */

/** What a POST's signature must cover, as Mastodon requires of one. */
export const SIGNED_HEADERS = ["(request-target)", "host", "date", "digest"] as const;

/**
 * How far a signed `Date` may be from the receiver's clock, either way. The
 * senders we know (Mastodon, Fedify) sign every attempt anew, so a fair
 * request is seconds old; a short window keeps a captured request from being
 * replayed later.
 */
export const MAX_CLOCK_SKEW_SECONDS = 300;

/** A request whose signature does not hold, and why (said in the 401 answer). */
export class SignatureRejected extends Error {
  override name = "SignatureRejected";
}

/** `SHA-256=<base64>`: the Digest header of a body (RFC 3230, RFC 5843). */
export function digestOf(body: Uint8Array | string): string {
  return `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
}

export interface SignOptions {
  readonly keyId: string;
  readonly privateKey: KeyObject;
  /** The signing time (the Date header). */
  readonly now: Date;
}

/** The headers a signed POST of `body` to `url` sends: Host, Date, Digest and Signature. */
export function signedPostHeaders(
  url: string,
  body: string,
  options: SignOptions,
): Record<string, string> {
  const headers: Record<string, string> = {
    host: new URL(url).host,
    date: options.now.toUTCString(),
    digest: digestOf(body),
  };
  const text = createSignatureString({
    includeHeaders: [...SIGNED_HEADERS],
    requestOptions: { url, method: "POST", headers },
  });
  const signature = sign("sha256", Buffer.from(text), options.privateKey).toString("base64");
  return {
    ...headers,
    signature: `keyId="${options.keyId}",algorithm="rsa-sha256",headers="${SIGNED_HEADERS.join(" ")}",signature="${signature}"`,
  };
}

export interface ReceivedRequest {
  readonly method: string;
  /** The address it was sent to (its path and query are signed). */
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/** The parts of a signature a receiver needs before it fetches the key. */
export interface ParsedSignature {
  readonly keyId: string;
  /** Verifies the signature with the key that keyId names (PEM). */
  verifyWith(publicKeyPem: string): void;
}

/**
 * Checks everything a signature says without the key: that there is one,
 * that it covers (request-target), host, date and digest, that Date is within
 * MAX_CLOCK_SKEW_SECONDS of `now`, and that Digest is the body's. The caller
 * fetches the key of `keyId` and calls `verifyWith`. Throws SignatureRejected.
 */
export function parseSignature(request: ReceivedRequest, now: Date): ParsedSignature {
  const header = request.headers.get("signature");
  if (!header) throw new SignatureRejected("the request is not signed (no Signature header)");
  const date = Date.parse(request.headers.get("date") ?? "");
  if (Number.isNaN(date)) throw new SignatureRejected("no Date header");
  const skew = Math.abs(date - now.getTime()) / 1000;
  if (skew > MAX_CLOCK_SKEW_SECONDS) {
    throw new SignatureRejected(
      `its Date is ${Math.round(skew)} s from this server's clock (at most ${MAX_CLOCK_SKEW_SECONDS})`,
    );
  }
  const digest = request.headers.get("digest");
  if (!digest) throw new SignatureRejected("no Digest header");
  if (!digestMatches(digest, request.body)) {
    throw new SignatureRejected("the Digest is not the body's (the body was changed)");
  }
  let parsed: { keyId: string; signingString: string; params: Record<string, unknown> };
  try {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // The library reads the parameters after a scheme, as in an Authorization header.
    headers.signature = `Signature ${header}`;
    parsed = parseRequest(
      { method: request.method, url: request.url, headers },
      {
        headers: [...SIGNED_HEADERS],
        authorizationHeaderName: "signature",
        // Date is checked above, both ways.
        clockSkew: Number.MAX_SAFE_INTEGER,
        now: Math.floor(now.getTime() / 1000),
      },
    );
  } catch (error) {
    throw new SignatureRejected(
      `the Signature header cannot be used (${(error as Error).message})`,
    );
  }
  const algorithm = String(parsed.params.algorithm ?? "rsa-sha256").toLowerCase();
  // hs2019 names no algorithm of its own: the key's decides, and the key is RSA.
  if (algorithm !== "rsa-sha256" && algorithm !== "hs2019") {
    throw new SignatureRejected(`the algorithm ${algorithm} is not rsa-sha256`);
  }
  const signature = Buffer.from(String(parsed.params.signature), "base64");
  return {
    keyId: parsed.keyId,
    verifyWith(publicKeyPem) {
      let key: KeyObject;
      try {
        key = createPublicKey(publicKeyPem);
      } catch {
        throw new SignatureRejected(`the key ${parsed.keyId} is not a public key`);
      }
      if (key.asymmetricKeyType !== "rsa") {
        throw new SignatureRejected(`the key ${parsed.keyId} is not an RSA key`);
      }
      if (!verify("sha256", Buffer.from(parsed.signingString), key, signature)) {
        throw new SignatureRejected(`the signature does not verify with the key ${parsed.keyId}`);
      }
    },
  };
}

/** Digest may list several algorithms (RFC 3230 section 4.3.2); SHA-256 must be one and match. */
function digestMatches(header: string, body: Uint8Array): boolean {
  const want = digestOf(body).slice("SHA-256=".length);
  return header.split(",").some((part) => {
    const at = part.indexOf("=");
    return (
      at > 0 &&
      part.slice(0, at).trim().toLowerCase() === "sha-256" &&
      part.slice(at + 1).trim() === want
    );
  });
}
