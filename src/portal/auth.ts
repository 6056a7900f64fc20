import type { IncomingMessage } from "node:http";

/**
 * Where the token travels. "bearer" is the contract (RFC 6750 section 2.1);
 * the others imitate portals that use an API-key header or query parameter,
 * for client tests (docs/api.md, "Test knobs").
 */
export type AuthMode =
  | { kind: "bearer" }
  | { kind: "scheme"; name: string }
  | { kind: "header"; name: string }
  | { kind: "query"; name: string };

export function parseAuthMode(value: string | undefined): AuthMode {
  if (value === undefined || value === "bearer") return { kind: "bearer" };
  const match = /^(scheme|header|query):([A-Za-z0-9_-]{1,64})$/.exec(value);
  if (!match) {
    throw new RangeError(
      `auth must be bearer, scheme:<Scheme>, header:<Name> or query:<name>, got "${value}"`,
    );
  }
  const kind = match[1] as "scheme" | "header" | "query";
  if (kind === "scheme" && (match[2] as string).toLowerCase() === "bearer")
    return { kind: "bearer" };
  return {
    kind,
    name: kind === "header" ? (match[2] as string).toLowerCase() : (match[2] as string),
  };
}

export type Credential =
  | { kind: "missing" }
  | { kind: "malformed"; reason: string }
  | { kind: "token"; token: string };

/** RFC 6750 section 2.1 b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export function readCredential(
  req: IncomingMessage,
  params: URLSearchParams,
  mode: AuthMode,
): Credential {
  if (mode.kind === "query") {
    const values = params.getAll(mode.name);
    if (values.length === 0 || values[0] === "") return { kind: "missing" };
    if (values.length > 1)
      return { kind: "malformed", reason: `${mode.name} is given more than once` };
    return { kind: "token", token: values[0] as string };
  }
  if (mode.kind === "header") {
    const value = req.headers[mode.name];
    const text = Array.isArray(value) ? value.join(",") : value;
    if (!text?.trim()) return { kind: "missing" };
    return { kind: "token", token: text.trim() };
  }
  const header = req.headers.authorization;
  if (!header) return { kind: "missing" };
  if (mode.kind === "scheme") {
    // `Authorization: <Scheme> <token>` (RFC 9110 section 11.4), e.g. "Token".
    const [scheme, ...rest] = header.trim().split(/\s+/);
    if (scheme?.toLowerCase() !== mode.name.toLowerCase()) return { kind: "missing" };
    const token = rest.join(" ");
    return token ? { kind: "token", token } : { kind: "malformed", reason: "no token" };
  }
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  // Another scheme (Basic, ...) counts as no Bearer credentials (RFC 6750 section 3.1).
  if (!match) return { kind: "missing" };
  const token = (match[1] ?? "").trim();
  if (!B64TOKEN.test(token))
    return { kind: "malformed", reason: "the Bearer token is not a b64token" };
  return { kind: "token", token };
}

/**
 * The WWW-Authenticate challenge of a 401 (RFC 9110 section 11.6.1). Per RFC
 * 6750 section 3.1 a request without credentials gets no error code; a bad,
 * unknown or revoked token gets error="invalid_token".
 */
export function challenge(mode: AuthMode, error?: { description: string }): string {
  const realm = 'realm="event-calendar"';
  const scheme =
    mode.kind === "bearer"
      ? `Bearer ${realm}`
      : mode.kind === "scheme"
        ? `${mode.name} ${realm}`
        : `ApiKey ${realm}, ${mode.kind}="${mode.name}"`;
  if (!error) return scheme;
  return `${scheme}, error="invalid_token", error_description="${error.description}"`;
}
