import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleScript, keepBundle, readKeptBundle } from "../../src/bundle/browser-bundle.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * A build takes the browser scripts' bundles from node_modules/.cache while
 * every file they were made from is as it was (src/bundle/browser-bundle.ts):
 * a kept bundle must never outlive a change to one of them.
 */

describe("kept browser bundles", () => {
  it("should name the settings and the bundler they were made with, beside their sources", () => {
    const { sources } = bundleScript({ entry: "src/site/browser/when.ts", kind: "module" });
    const names = Object.keys(sources);
    for (const end of [
      "src/site/browser/when.ts",
      "src/browser/tsconfig.json",
      "src/bundle/browser-bundle.ts",
      "esbuild/package.json",
    ]) {
      expect(
        names.some((name) => name.endsWith(end)),
        end,
      ).toBe(true);
    }
  });

  it("should be read back while their sources are as they were, and not once one changed or went", () => {
    const dir = tempDir("ecp-kept-bundles-");
    const entry = join(dir, "entry.ts");
    const dependency = join(dir, "dependency.ts");
    writeFileSync(entry, 'import { word } from "./dependency.ts";\nconsole.log(word);\n');
    writeFileSync(dependency, 'export const word = "one";\n');
    const kept = join(dir, "cache", "entry.json");
    const bundle = keepBundle(kept, bundleScript({ entry, kind: "module" }));
    expect(bundle.code).toContain('"one"');
    expect(readKeptBundle(kept)?.code).toBe(bundle.code);

    writeFileSync(dependency, 'export const word = "three";\n');
    expect(readKeptBundle(kept), "an edited source").toBeUndefined();
    keepBundle(kept, bundleScript({ entry, kind: "module" }));
    expect(readKeptBundle(kept)?.code).toContain('"three"');

    rmSync(dependency);
    expect(readKeptBundle(kept), "a source that is gone").toBeUndefined();
  });

  it("should cost the next build its bundling, nothing else, where the cache cannot be written", () => {
    const dir = tempDir("ecp-kept-bundles-");
    // A file where the cache's folder would be: no folder can be made there.
    writeFileSync(join(dir, "cache"), "not a folder");
    const bundle = bundleScript({ entry: "src/site/browser/when.ts", kind: "module" });
    expect(keepBundle(join(dir, "cache", "when.json"), bundle)).toBe(bundle);
    expect(readKeptBundle(join(dir, "cache", "when.json"))).toBeUndefined();
  });
});
