import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.ts";
import {
  EMBED_PAGES_RULE,
  embedPolicy,
  embedPolicyRules,
  withEmbedPolicy,
} from "../../src/hosts/embed-policy.ts";
import { defaultHeaderRules, headersFor, loadHeaderRules } from "../../src/hosts/headers.ts";

describe("embedPolicy", () => {
  it("should name each origin once beside 'self' where the widget loads its own files", () => {
    const policy = embedPolicy([
      "https://events.example.org/calendar/",
      "https://events.example.org",
    ]);
    const directives = new Map(
      policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]),
    );
    const own = "'self' https://events.example.org";
    expect(Object.fromEntries(directives)).toEqual({
      "default-src": own,
      "img-src": `${own} https: data:`,
      "style-src": own,
      "script-src": own,
      "frame-ancestors": "*",
      "base-uri": "'self'",
      "form-action": "'self'",
      "object-src": "'none'",
    });
  });
});

describe("withEmbedPolicy", () => {
  it("should give the embed pages, and only them, the policy", () => {
    const rules = withEmbedPolicy(defaultHeaderRules(), ["http://127.0.0.1:8080"]);
    expect(headersFor("/embed/culture/", rules)["Content-Security-Policy"]).toBe(
      embedPolicy(["http://127.0.0.1:8080"]),
    );
    expect(headersFor("/embed/culture/events/e1/", rules)["Content-Security-Policy"]).toContain(
      "frame-ancestors *",
    );
    for (const path of ["/", "/embed/", "/calendars/x/", "/search/"]) {
      expect(headersFor(path, rules), path).toEqual(headersFor(path, defaultHeaderRules()));
    }
  });

  it("should refuse in one line a netlify.toml without the embed pages' rule", () => {
    const without = loadHeaderRules().filter((rule) => rule.for !== EMBED_PAGES_RULE);
    expect(() => withEmbedPolicy(without, ["https://example.org"])).toThrow(ConfigError);
  });
});

describe("embedPolicyRules", () => {
  it("should be the embed pages' rule with its policy alone", () => {
    const rules = withEmbedPolicy(defaultHeaderRules(), ["https://example.org"]);
    expect(embedPolicyRules(rules).map((rule) => [rule.for, rule.values])).toEqual([
      [EMBED_PAGES_RULE, { "Content-Security-Policy": embedPolicy(["https://example.org"]) }],
    ]);
    expect(embedPolicyRules(defaultHeaderRules())).toEqual([]);
  });
});
