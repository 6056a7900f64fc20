import { describe, expect, it } from "vitest";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import { defaultHeaderRules, headersFor } from "../../src/hosts/headers.ts";
import { metaPolicy, pagePathOf, withPolicyMeta } from "../../src/hosts/page-policy.ts";

describe("metaPolicy", () => {
  it("should be netlify.toml's policy for the path, less what a meta cannot carry", () => {
    for (const path of ["/", "/calendars/x/", "/search/", "/embed/", "/embed/x/", "/404.html"]) {
      const rules = withEmbedPolicy(defaultHeaderRules(), ["https://example.org"]);
      const header = headersFor(path, rules)["Content-Security-Policy"] ?? "";
      const expected = header
        .split("; ")
        .filter((directive) => !directive.startsWith("frame-ancestors"))
        .join("; ");
      expect(metaPolicy(path, rules), path).toBe(expected);
      expect(metaPolicy(path, rules), path).not.toContain("frame-ancestors");
    }
    expect(metaPolicy("/search/")).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(metaPolicy("/calendars/x/")).toContain("script-src 'self';");
  });

  it("should be null where netlify.toml sets no policy", () => {
    expect(metaPolicy("/feed.xml")).toBeNull();
  });
});

describe("withPolicyMeta", () => {
  it("should put the policy right after the charset, before anything it governs", () => {
    const html =
      '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<script src="/a.js"></script>\n</head>\n</html>\n';
    expect(withPolicyMeta(html, "/search/")).toBe(
      `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${metaPolicy("/search/")}">\n<script src="/a.js"></script>\n</head>\n</html>\n`,
    );
  });

  it("should leave a page without a policy, or without a head, as it is", () => {
    expect(withPolicyMeta("<head><meta charset=utf-8></head>", "/feed.xml")).toBe(
      "<head><meta charset=utf-8></head>",
    );
    expect(withPolicyMeta("plain", "/")).toBe("plain");
  });
});

describe("pagePathOf", () => {
  it("should give the URL path a written file is served at", () => {
    expect(pagePathOf("index.html")).toBe("/");
    expect(pagePathOf("/embed/x/index.html")).toBe("/embed/x/");
    expect(pagePathOf("404.html")).toBe("/404.html");
  });
});
