import { describe, expect, it } from "vitest";
import { DEPLOY_TARGETS } from "../../src/config/deploy.ts";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import { defaultHeaderRules, headersFor } from "../../src/hosts/headers.ts";
import { hostOutputs } from "../../src/hosts/host-files.ts";
import { metaPolicy } from "../../src/hosts/page-policy.ts";
import { headersFromFile, readHeadersFile } from "../helpers/headers-file.ts";

/* What each DEPLOY_TARGET has written into the site besides the site itself. */

/** netlify.toml's rules as the build gives them for a site at example.org (src/hosts/site-rules.ts). */
const RULES = withEmbedPolicy(defaultHeaderRules(), ["https://example.org/events/"]);

const PAGE =
  '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>x</title>\n</head>\n</html>\n';

const policyMetas = (html: string) =>
  [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)].map(
    (match) => match[1],
  );

describe("hostOutputs", () => {
  it("should carry each page's policy in the page for every host that is not sent it by netlify.toml or _headers", () => {
    const withMeta = DEPLOY_TARGETS.filter((target) => hostOutputs(target, RULES).page !== null);
    expect(withMeta).toEqual(["github-pages", "s3", "static"]);
    for (const target of withMeta) {
      const page = hostOutputs(target, RULES).page as (html: string, sitePath: string) => string;
      for (const path of ["/", "/calendars/x/", "/search/", "/embed/x/"]) {
        expect(policyMetas(page(PAGE, path)), `${target} ${path}`).toEqual([
          metaPolicy(path, RULES),
        ]);
      }
    }
  });

  it("should write .nojekyll for GitHub Pages, all the rules in _headers for Cloudflare Pages and the embed pages' policy in _headers for Netlify", () => {
    const files = (target: (typeof DEPLOY_TARGETS)[number]) =>
      hostOutputs(target, RULES).files.flatMap((group) =>
        group.items.map((item) => group.path(item)),
      );
    expect(Object.fromEntries(DEPLOY_TARGETS.map((target) => [target, files(target)]))).toEqual({
      netlify: ["/_headers"],
      "github-pages": ["/.nojekyll"],
      "cloudflare-pages": ["/_headers"],
      s3: [],
      static: [],
    });
    const [headers] = hostOutputs("cloudflare-pages", RULES).files;
    const text = String(headers?.render(headers.items[0]));
    // Event images keep their policy on Cloudflare Pages too.
    expect(headersFromFile(readHeadersFile(text), "/media/a.svg")).toEqual(
      headersFor("/media/a.svg"),
    );
  });

  it("should send Netlify the embed pages' policy, which netlify.toml cannot name the site's origin in", () => {
    expect(headersFor("/embed/x/")["Content-Security-Policy"]).toBeUndefined();
    const [headers] = hostOutputs("netlify", RULES).files;
    const rules = readHeadersFile(String(headers?.render(headers.items[0])));
    expect(headersFromFile(rules, "/embed/x/")).toEqual({
      "Content-Security-Policy": headersFor("/embed/x/", RULES)["Content-Security-Policy"],
    });
    expect(headersFromFile(rules, "/embed/x/")["Content-Security-Policy"]).toContain(
      "script-src 'self' https://example.org;",
    );
    // Only that: every other header is netlify.toml's, which Netlify reads itself.
    expect(headersFromFile(rules, "/calendars/x/")).toEqual({});
  });
});
