import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/api/auth.ts";
import { errorBodyExcerpt } from "../../src/check/error-body.ts";

const TOKEN = "ecp_abcdefghijkl_s3cret-value-never-shown";
const shown = (body: string | null) => errorBodyExcerpt(body, createRedactor(TOKEN));

describe("errorBodyExcerpt", () => {
  it.each([
    [
      "RFC 9457 problem details",
      '{"type":"https://portal.example.org/problems/unauthorized","title":"Authentication required","status":401,"detail":"The token is not valid; ask the organization administrator for a new one."}',
      "Authentication required: The token is not valid; ask the organization administrator for a new one.",
    ],
    [
      "an OAuth error",
      '{"error":"invalid_token","error_description":"The access token expired"}',
      "invalid_token: The access token expired",
    ],
    [
      "a nested error object",
      '{"error":{"code":401,"message":"API key not valid. Please pass a valid API key.","status":"UNAUTHENTICATED"}}',
      "API key not valid. Please pass a valid API key.",
    ],
    [
      "a JSON:API error list",
      '{"errors":[{"status":"403","title":"Forbidden","detail":"This key may not read calendars."}]}',
      "Forbidden: This key may not read calendars.",
    ],
    [
      "an HTML page",
      "<html><head><title>401 Authorization Required</title><style>h1{color:red}</style></head>\n<body><h1>401 Authorization Required</h1><hr>nginx &amp; friends</body></html>",
      "401 Authorization Required nginx & friends",
    ],
    [
      "plain text over lines",
      "Unauthorized.\n\n  Send the key\tin a header.\n",
      "Unauthorized. Send the key in a header.",
    ],
  ])("should give the portal's words from %s on one line", (_, body, excerpt) => {
    expect(shown(body)).toBe(excerpt);
  });

  it("should say nothing for an empty answer", () => {
    expect(shown("")).toBeNull();
    expect(shown("  \n")).toBeNull();
    expect(shown(null)).toBeNull();
  });

  it("should keep to two lines, however long the answer", () => {
    const excerpt = shown(`Denied. ${"Read the manual. ".repeat(100)}`) ?? "";
    expect(excerpt.length).toBeLessThanOrEqual(160);
    expect(excerpt).toMatch(/^Denied\. Read the manual\. .*…$/);
  });

  it.each([
    [
      "a query string",
      "Unknown api_key=k3y-s3cr3t-0001 in /v1/event-calendars?api_key=k3y-s3cr3t-0001&x=1",
    ],
    [
      "echoed headers",
      "Rejected request. authorization: Bearer k3y-s3cr3t-0001\nx-api-key: k3y-s3cr3t-0001",
    ],
    [
      "a JSON echo",
      '{"request":{"headers":{"X-Api-Key":"k3y-s3cr3t-0001","password":"k3y s3cr3t 0001"}}}',
    ],
    [
      "a message quoting it",
      '{"message":"token=k3y-s3cr3t-0001 is not known (csrf_token: k3y-s3cr3t-0001)"}',
    ],
    ["a written-out credential", "Bearer k3y-s3cr3t-0001 was not accepted"],
  ])("should replace secrets the portal echoes in %s", (_, body) => {
    const excerpt = shown(body) ?? "";
    expect(excerpt).toContain("[redacted]");
    expect(excerpt).not.toMatch(/k3y|s3cr3t|0001/);
    expect(excerpt).not.toContain("[redacted]]");
  });

  it("should never show the token, also when the portal wrote it as character references", () => {
    const referenced = [...TOKEN].map((c) => `&#${c.codePointAt(0)};`).join("");
    for (const body of [
      `<p>Your token ${referenced} is unknown.</p>`,
      `Your token ${referenced} is unknown.`,
      `{"message":"Your token ${TOKEN} is unknown."}`,
    ]) {
      const excerpt = shown(body) ?? "";
      expect(excerpt).toBe("Your token [redacted] is unknown.");
    }
  });

  it("should leave words about tokens alone", () => {
    expect(shown('Bearer realm="event-calendar", error="invalid_token"')).toBe(
      'Bearer realm="event-calendar", error="invalid_token"',
    );
    expect(shown("The token is not valid; use Basic authentication")).toBe(
      "The token is not valid; use Basic authentication",
    );
    expect(shown('{"error":"Invalid token","message":"The token was revoked"}')).toBe(
      "Invalid token: The token was revoked",
    );
  });

  it("should not pass terminal escape sequences through", () => {
    const excerpt = shown("Denied\u001b[2J\u001b]0;title\u0007 now") ?? "";
    expect(excerpt).toMatch(/^Denied/);
    for (const control of ["\u001b", "\u0007"]) expect(excerpt).not.toContain(control);
  });
});
