import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * .github/workflows/publish.yml builds for GitHub Pages as
 * test/integration/github-pages.test.ts does, and keeps what the next build
 * needs (EVENT_API_CACHE_DIR) with actions/cache.
 */
const workflow = readFileSync(
  join(import.meta.dirname, "../../.github/workflows/publish.yml"),
  "utf8",
);

/** The `env:` block of the named step (its lines indented below `env:`). */
function stepEnv(name: string): Record<string, string> {
  const step = workflow.split(/\n(?=\s+- )/).find((block) => block.includes(`name: ${name}`));
  const env = step?.split(/\n\s+env:\n/)[1] ?? "";
  return Object.fromEntries(
    [...env.matchAll(/^\s+([A-Z_]+): (.+)$/gm)].map((m) => [m[1], (m[2] ?? "").trim()]),
  );
}

describe("the publish workflow", () => {
  it("should build for GitHub Pages, in the Pages folder", () => {
    const env = stepEnv("Build");
    expect(env.DEPLOY_TARGET).toBe("github-pages");
    expect(env.SITE_URL).toContain("steps.pages.outputs.base_url");
  });

  it("should keep the build's cache folder, with the published state, between runs", () => {
    const cacheDir = stepEnv("Build").EVENT_API_CACHE_DIR;
    expect(cacheDir).toBeTruthy();
    const cacheStep = workflow
      .split(/\n(?=\s+- )/)
      .find((block) => block.includes("actions/cache@"));
    expect(cacheStep).toMatch(new RegExp(`\\n\\s+path: ${cacheDir?.replace(".", "\\.")}\\n`));
  });
});
