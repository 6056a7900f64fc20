import { describe, expect, it } from "vitest";
import { DEPLOY_TARGETS } from "../../src/config/deploy.ts";
import { headersFor } from "../../src/hosts/headers.ts";
import { hostOutputs } from "../../src/hosts/host-files.ts";
import { metaPolicy } from "../../src/hosts/page-policy.ts";
import { headersFromFile, readHeadersFile } from "../helpers/headers-file.ts";

/* What each DEPLOY_TARGET has written into the site besides the site itself. */

const PAGE =
  '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>x</title>\n</head>\n</html>\n';

const policyMetas = (html: string) =>
  [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)].map(
    (match) => match[1],
  );

describe("hostOutputs", () => {
  it("should carry each page's policy in the page for every host that is not sent it by netlify.toml or _headers", () => {
    const withMeta = DEPLOY_TARGETS.filter((target) => hostOutputs(target).page !== null);
    expect(withMeta).toEqual(["github-pages", "s3", "static"]);
    for (const target of withMeta) {
      const page = hostOutputs(target).page as (html: string, sitePath: string) => string;
      for (const path of ["/", "/calendars/x/", "/search/", "/embed/x/"]) {
        expect(policyMetas(page(PAGE, path)), `${target} ${path}`).toEqual([metaPolicy(path)]);
      }
    }
  });

  it("should write .nojekyll for GitHub Pages and _headers for Cloudflare Pages only", () => {
    const files = (target: (typeof DEPLOY_TARGETS)[number]) =>
      hostOutputs(target).files.flatMap((group) => group.items.map((item) => group.path(item)));
    expect(Object.fromEntries(DEPLOY_TARGETS.map((target) => [target, files(target)]))).toEqual({
      netlify: [],
      "github-pages": ["/.nojekyll"],
      "cloudflare-pages": ["/_headers"],
      s3: [],
      static: [],
    });
    const [headers] = hostOutputs("cloudflare-pages").files;
    const text = String(headers?.render(headers.items[0]));
    // Event images keep their policy on Cloudflare Pages too.
    expect(headersFromFile(readHeadersFile(text), "/media/a.svg")).toEqual(
      headersFor("/media/a.svg"),
    );
  });
});
