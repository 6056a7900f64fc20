import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

  it("should keep the build's cache folder, with the published state, and its output between runs", () => {
    const cacheDir = stepEnv("Build").EVENT_API_CACHE_DIR;
    expect(cacheDir).toBeTruthy();
    const cacheStep =
      workflow.split(/\n(?=\s+- )/).find((block) => block.includes("actions/cache@")) ?? "";
    // The lines of `path: |`, up to the step's next key.
    const block = (cacheStep.split(/\n\s+path: \|\n/)[1] ?? "").split("\n");
    const end = block.findIndex((line) => line.includes(":"));
    const paths = block.slice(0, end < 0 ? undefined : end).map((line) => line.trim());
    // The output is the folder the Pages upload reads: without it every file is rendered again.
    const upload = workflow
      .split(/\n(?=\s+- )/)
      .find((block) => block.includes("upload-pages-artifact"));
    const output = /\n\s+path: (\S+)/.exec(upload ?? "")?.[1]?.replace(/^\.\//, "");
    expect(output).toBeTruthy();
    expect(paths).toEqual([cacheDir, output]);
  });
});

/** A workflow of .github/workflows: its text, and a step found by its name. */
function workflowFile(name: string): { text: string; step: (stepName: string) => string } {
  const text = readFileSync(join(import.meta.dirname, "../../.github/workflows", name), "utf8");
  const steps = text.split(/\n(?=\s+- )/);
  return {
    text,
    step: (stepName) => steps.find((block) => block.includes(`name: ${stepName}`)) ?? "",
  };
}

/** The `env:` block of a step, by variable. */
const envOf = (block: string): Record<string, string> =>
  Object.fromEntries(
    [...(block.split(/\n\s+env:\n/)[1] ?? "").matchAll(/^\s+([A-Z_]+): (.+)$/gm)].map((m) => [
      m[1],
      (m[2] ?? "").trim(),
    ]),
  );

/** A step's `run: |` script, unindented. */
function scriptOf(block: string): string {
  const lines = (block.split(/\n\s+run: \|\n/)[1] ?? "").split("\n");
  const indent = /^\s*/.exec(lines[0] ?? "")?.[0].length ?? 0;
  const script: string[] = [];
  for (const line of lines) {
    if (line.trim() && line.length - line.trimStart().length < indent) break;
    script.push(line.slice(indent));
  }
  return script.join("\n");
}

/*
 * .github/workflows/publish-sharded.yml splits the build over a matrix of
 * shards (docs/performance.md, "A build over several machines"): one clock
 * for all, each shard's folder uploaded with its record, merged once.
 */
/** A GitHub Actions expression as the workflow spells it: `${{ inner }}`. */
const expr = (inner: string) => `$${"{{"} ${inner} }}`;

describe("the sharded publish workflow", () => {
  const { text: sharded, step } = workflowFile("publish-sharded.yml");
  const steps = sharded.split(/\n(?=\s+- )/);

  it("should plan one clock and the list of shards from BUILD_SHARDS", () => {
    const dir = mkdtempSync(join(tmpdir(), "ecp-plan-"));
    try {
      const outputs = join(dir, "outputs");
      for (const [shards, expected] of [
        ["3", "[1,2,3]"],
        ["", "[1,2,3,4]"],
      ] as const) {
        writeFileSync(outputs, "");
        execFileSync("bash", ["-c", scriptOf(step("The build's clock and shards"))], {
          env: { ...process.env, GITHUB_OUTPUT: outputs, BUILD_SHARDS: shards },
        });
        const values = Object.fromEntries(
          readFileSync(outputs, "utf8")
            .trim()
            .split("\n")
            .map((line) => line.split("=") as [string, string]),
        );
        expect(values.shards).toBe(expected);
        expect(JSON.parse(values.shards ?? "")).toHaveLength(Number(values.count));
        expect(values.now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("should build each shard of the matrix at the plan's clock, and upload it with its record", () => {
    expect(sharded).toContain(`shard: ${expr("fromJSON(needs.plan.outputs.shards)")}`);
    const build = step("Build shard");
    expect(build).toContain('npm run build -- --shard "$SHARD/$COUNT" --output "shard-$SHARD"');
    const env = envOf(build);
    expect(env.SHARD).toBe(expr("matrix.shard"));
    expect(env.COUNT).toBe(expr("needs.plan.outputs.count"));
    expect(env.SITE_NOW).toBe(expr("needs.plan.outputs.now"));
    const upload = steps.find((block) => block.includes("actions/upload-artifact@")) ?? "";
    expect(upload).toContain(`path: shard-${expr("matrix.shard")}`);
    // The record merge-shards checks is in .shard/, which upload-artifact leaves out by default.
    expect(upload).toContain("include-hidden-files: true");
  });

  it("should merge every shard's folder once, then deploy the merged site", () => {
    const download = steps.find((block) => block.includes("actions/download-artifact@")) ?? "";
    expect(download).toContain("pattern: shard-*");
    expect(download).toContain("path: shards");
    expect(step("Merge the shards")).toContain(
      "npm run merge-shards -- --output _site shards/shard-*",
    );
    expect(step("Deploy to Netlify")).toContain("--dir _site");
    expect(sharded.indexOf("name: Merge the shards")).toBeLessThan(
      sharded.indexOf("name: Deploy to Netlify"),
    );
  });
});

/*
 * .github/workflows/digest.yml mails the published site's weekly digest
 * (docs/followers.md): every day, sending on DIGEST_DAY only, with the
 * record of what it sent kept between runs by actions/cache.
 */
describe("the weekly digest workflow", () => {
  const { text: digest, step } = workflowFile("digest.yml");
  const steps = digest.split(/\n(?=\s+- )/);
  const send = step("Send the digest");
  const env = envOf(send);
  const script = scriptOf(send);

  /** The command lines the step's script runs for an event, with npm standing in. */
  function commandsFor(event: string): string {
    const dir = mkdtempSync(join(tmpdir(), "ecp-digest-workflow-"));
    try {
      const npm = join(dir, "npm");
      writeFileSync(npm, '#!/bin/sh\necho "npm $*"\n', { mode: 0o755 });
      return execFileSync("bash", ["-c", script], {
        env: {
          ...process.env,
          PATH: `${dir}:${process.env.PATH}`,
          EVENT: event,
          SITE_URL: "https://events.example.org",
        },
        encoding: "utf8",
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("should send on DIGEST_DAY only when scheduled, and the latest digest when run by hand", () => {
    expect(commandsFor("schedule")).toBe(
      "npm run -s send-digest -- --site https://events.example.org --scheduled\n",
    );
    expect(commandsFor("workflow_dispatch")).toBe(
      "npm run -s send-digest -- --site https://events.example.org\n",
    );
  });

  it("should take the SMTP password from a secret, and run only where DIGEST_TO is set", () => {
    expect(env.SMTP_URL).toBe(expr("secrets.SMTP_URL"));
    for (const name of ["DIGEST_FROM", "DIGEST_TO", "DIGEST_DAY", "SITE_LANG", "SITE_TIMEZONE"]) {
      expect(env[name], name).toBe(expr(`vars.${name}`));
    }
    expect(digest).toContain("if: vars.DIGEST_TO != ''");
  });

  it("should keep the record of what was sent, in the command's cache folder, between runs", () => {
    const folder = `${env.EVENT_API_CACHE_DIR}/digest`;
    const restore = steps.find((block) => block.includes("actions/cache/restore@")) ?? "";
    const save = steps.find((block) => block.includes("actions/cache/save@")) ?? "";
    expect(restore).toContain(`path: ${folder}\n`);
    expect(save).toContain(`path: ${folder}\n`);
    expect(save).toContain("if: always()");
    expect(digest.indexOf("actions/cache/restore@")).toBeLessThan(
      digest.indexOf("name: Send the digest"),
    );
  });

  it("should give the build the same DIGEST_DAY, which decides the digest's weeks", () => {
    expect(stepEnv("Build").DIGEST_DAY).toBe(expr("vars.DIGEST_DAY"));
  });
});
