import { describe, expect, it } from "vitest";
import { createRedactor, withoutToken } from "../../src/api/auth.ts";
import { backoffMs, isRetryableStatus, parseRetryAfter } from "../../src/api/retry.ts";
import { NOW_MS } from "../helpers/clock.ts";

describe("retry policy", () => {
  it("should retry 408, 429 and 5xx only", () => {
    expect([400, 401, 403, 404, 408, 409, 429, 500, 503].filter(isRetryableStatus)).toEqual([
      408, 429, 500, 503,
    ]);
  });

  it("should back off exponentially with full jitter under the cap", () => {
    expect(backoffMs(0, 60_000, () => 1)).toBe(250);
    expect(backoffMs(3, 60_000, () => 1)).toBe(2000);
    expect(backoffMs(3, 60_000, () => 0.5)).toBe(1000);
    expect(backoffMs(20, 5000, () => 1)).toBe(5000);
    expect(backoffMs(5, 5000, () => 0)).toBe(0);
  });

  it("should read Retry-After as seconds or an HTTP date (RFC 9110 section 10.2.3)", () => {
    const now = NOW_MS;
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Fri, 20 Mar 2026 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Fri, 20 Mar 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe("token redaction", () => {
  it("should remove the token in raw, URL-encoded and JSON forms", () => {
    const redact = createRedactor('tok+en/"x"=');
    expect(
      redact('a tok+en/"x"= b tok%2Ben%2F%22x%22%3D c tok%2Ben%2F%22x%22%3D d tok+en/\\"x\\"='),
    ).toBe("a [redacted] b [redacted] c [redacted] d [redacted]");
  });

  it("should strip the query token from URLs", () => {
    const url = new URL("https://p.example/v1/x?api_key=abc&cursor=1");
    expect(withoutToken(url, { kind: "query", name: "api_key" }).href).toBe(
      "https://p.example/v1/x?cursor=1",
    );
  });
});
