import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BrowserScript, bundleScript } from "../../src/bundle/browser-bundle.ts";
import { siteScriptFiles } from "../../src/bundle/site-scripts.ts";
import { widgetAssets } from "../../src/widget/assets.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFilesSync, readSiteFile } from "../helpers/files.ts";

/*
 * The browser scripts are bundled at build time (src/bundle/browser-bundle.ts).
 * Their bytes must be the same in every build (the build is reproducible
 * byte for byte), evaluate nothing from a string (the pages'
 * Content-Security-Policy, `script-src 'self'`, forbids it), and be at the
 * addresses the pages load them from, of the kind the pages load them as.
 */

const ROOT = resolve(import.meta.dirname, "../..");

interface Published {
  /** Its site path, "/assets/site.js". */
  readonly path: string;
  readonly kind: BrowserScript["kind"];
  /** Bundled in this process, as the build bundles it. */
  readonly code: string;
  /** Bundled anew, without the process's memo; null where the build writes more in (widget.js). */
  readonly fresh: string | null;
}

function publishedScripts(): Published[] {
  const group = siteScriptFiles();
  const site = group.items.map((item) => {
    const script = item as BrowserScript;
    const code = group.render(item);
    if (typeof code !== "string") throw new Error(`${script.entry} is not text`);
    return { path: group.path(item), kind: script.kind, code, fresh: bundleScript(script).code };
  });
  const widget = widgetAssets();
  const classic = (path: string, code: string, entry: string | null): Published => ({
    path,
    kind: "classic",
    code,
    fresh: entry ? bundleScript({ entry, kind: "classic" }).code : null,
  });
  return [
    ...site,
    classic("/embed/widget.js", widget.widgetJs, null),
    classic("/embed/frame.js", widget.frameJs, "src/widget/browser/frame.ts"),
    // Both get the site's languages written in (src/widget/assets.ts, withConfig).
    classic("/embed.js", widget.embedJs, null),
  ];
}

let dir = "";
let scripts: Published[] = [];

beforeAll(async () => {
  dir = (await builtDemoSite()).dir;
  scripts = publishedScripts();
});

describe("browser bundles", () => {
  it("should be the same bytes in every build, as the demo build published them", () => {
    for (const script of scripts) {
      expect(readSiteFile(dir, script.path), script.path).toBe(script.code);
      if (script.fresh !== null) expect(script.fresh, script.path).toBe(script.code);
    }
  });

  it("should name no folder of the machine that built them", () => {
    for (const script of scripts) {
      expect(script.code, script.path).not.toContain(ROOT);
      expect(script.code, script.path).not.toContain(tmpdir());
      expect(script.code, script.path).not.toMatch(/file:\/\//);
    }
  });

  it("should evaluate no code from a string", () => {
    for (const script of scripts) {
      expect(script.code, script.path).not.toMatch(/\beval\s*\(/);
      expect(script.code, script.path).not.toMatch(/\bFunction\s*\(/);
      expect(script.code, script.path).not.toMatch(/\b(?:setTimeout|setInterval)\(\s*["'`]/);
    }
  });

  it("should be classic scripts without import or export where pages load them as such", () => {
    for (const script of scripts.filter((s) => s.kind === "classic")) {
      expect(script.code, script.path).not.toMatch(/^\s*(?:import|export)\b/m);
    }
  });

  it("should be where every page loads its scripts from, of the kind it loads them as", () => {
    const kinds = new Map(scripts.map((script) => [script.path, script.kind]));
    const loaded = new Map<string, Set<string>>();
    for (const page of listFilesSync(dir).filter((file) => file.endsWith(".html"))) {
      for (const tag of readSiteFile(dir, page).match(/<script\b[^>]*>/g) ?? []) {
        const src = /\ssrc="([^"]+)"/.exec(tag)?.[1];
        if (!src) continue;
        const path = new URL(src, `https://events.example.org/${page}`).pathname;
        expect(existsSync(join(dir, path)), `${page}: ${src}`).toBe(true);
        const kind = /\stype="module"/.test(tag) ? "module" : "classic";
        if (kinds.has(path)) expect(kind, `${page}: ${src}`).toBe(kinds.get(path));
        loaded.set(path, (loaded.get(path) ?? new Set()).add(page));
      }
    }
    // Every bundle is loaded by some page but the embedding sites' own (embed.js) and the
    // map's, which place pages load only with MAP_TILES_URL (test/places/map.browser.test.ts).
    expect([...kinds.keys()].filter((path) => !loaded.has(path))).toEqual([
      "/assets/map.js",
      "/embed.js",
    ]);
  });
});
