import { describe, expect, it } from "vitest";
import { siteWideInputs } from "../../src/eleventy/site-wide-inputs.ts";

const globals = (now: string, extra: Record<string, unknown> = {}) => ({
  site: { title: "Events", lang: "en", now },
  portal: { views: { organizationIndex: [] }, events: [{ id: "changes with every edit" }] },
  eleventy: { version: "3" },
  ...extra,
});
const NETLIFY = JSON.stringify(["netlify", null]);
const GITHUB = JSON.stringify(["github-pages", [{ for: "/*", csp: "default-src 'self'" }]]);

describe("the inputs every streamed page shares", () => {
  it("should change with the host's transform, the settings and the site's own data, not the clock or the portal", () => {
    const base = siteWideInputs(globals("2026-11-22T12:00:00Z"), NETLIFY);
    expect(base).toBeTypeOf("string");
    // A page kept from a Netlify build would miss the policy GitHub Pages needs in its head.
    expect(siteWideInputs(globals("2026-11-22T12:00:00Z"), GITHUB)).not.toBe(base);
    expect(
      siteWideInputs({ ...globals("2026-11-22T12:00:00Z"), site: { title: "Other" } }, NETLIFY),
    ).not.toBe(base);
    expect(siteWideInputs(globals("2026-11-22T12:00:00Z", { links: ["a"] }), NETLIFY)).not.toBe(
      base,
    );
    // The clock reaches a page through what its own inputs name; the portal's data through its item.
    expect(siteWideInputs(globals("2026-11-23T00:00:00Z"), NETLIFY)).toBe(base);
    const other = globals("2026-11-22T12:00:00Z");
    expect(siteWideInputs({ ...other, portal: { ...other.portal, events: [] } }, NETLIFY)).toBe(
      base,
    );
  });

  it("should name no inputs when the site's data cannot be written as JSON, so that every page is rendered", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(siteWideInputs(globals("2026-11-22T12:00:00Z", { loop }), NETLIFY)).toBeUndefined();
  });
});
