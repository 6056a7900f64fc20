import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { headersFor } from "../../src/hosts/headers.ts";
import { renderS3Sync, syncPasses } from "../../src/hosts/s3-upload.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles } from "../helpers/files.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
import { hasPythonModule, SYSTEM_PYTHON } from "../helpers/system-packages.ts";

/*
 * The S3 recipe without a bucket: which pass uploads each file of the demo
 * build is worked out with the aws CLI's own matching (Python's fnmatch, the
 * last matching filter deciding), and the script is run with a stand-in
 * `aws` that records its calls, in order.
 */

let files: string[];

beforeAll(async () => {
  files = await listFiles((await builtDemoSite()).dir);
});

/** For each file, the passes whose filters let it through, as `aws s3 sync` filters. */
function passesTaking(filters: readonly (readonly (readonly [string, string])[])[]): number[][] {
  const program = `
import fnmatch, json, sys
data = json.load(sys.stdin)
out = []
for path in data["files"]:
    taken = []
    for index, filters in enumerate(data["passes"]):
        included = True
        for kind, pattern in filters:
            if fnmatch.fnmatch(path, pattern):
                included = kind == "include"
        if included:
            taken.append(index)
    out.append(taken)
json.dump(out, sys.stdout)
`;
  const run = spawnSync(SYSTEM_PYTHON, ["-c", program], {
    input: JSON.stringify({ files, passes: filters }),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as number[][];
}

describe("the S3 upload passes", () => {
  it.runIf(hasPythonModule("fnmatch"))(
    "should upload every file in exactly one pass, with the headers netlify.toml gives it that a bucket keeps",
    () => {
      const passes = syncPasses();
      const taken = passesTaking(passes.map((pass) => pass.filters));
      const wrong = files.flatMap((file, index) => {
        const [only, ...more] = taken[index] ?? [];
        if (only === undefined || more.length) return [`${file}: passes ${taken[index]}`];
        const want = headersFor(urlPathOf(file));
        const got = passes[only]?.headers ?? {};
        return ["Content-Type", "Cache-Control", "Content-Disposition"]
          .filter((name) => got[name] !== want[name])
          .map((name) => `${file}: ${name} ${got[name]} (want ${want[name]})`);
      });
      expect(files.length).toBeGreaterThan(500);
      expect(wrong).toEqual([]);
      // The kinds a bucket must be told: calendars, downloads, feeds, the digest's
      // text (UTF-8, not a bucket's plain text), JSON, the fediverse's, images.
      expect(passes.map((pass) => pass.headers["Content-Type"] ?? null)).toEqual([
        "text/calendar; charset=utf-8",
        "text/calendar; charset=utf-8",
        "application/rss+xml; charset=utf-8",
        "application/atom+xml; charset=utf-8",
        "application/feed+json; charset=utf-8",
        "text/plain; charset=utf-8",
        "application/json",
        "application/jrd+json",
        "application/activity+json",
        // Event images: their type from their extension, stored as downloads (netlify.toml).
        null,
        null,
      ]);
      expect(passes.at(-2)?.headers["Content-Disposition"]).toBe("attachment");
      expect(passes.at(-2)?.filters).toContainEqual(["include", "media/*"]);
    },
  );

  it("should upload everything before it deletes anything", () => {
    const work = mkdtempSync(join(tmpdir(), "ecp-s3-"));
    try {
      const aws = join(work, "aws");
      writeFileSync(aws, `#!/bin/sh\nprintf '%s\\n' "$*" >> "${work}/calls"\n`);
      chmodSync(aws, 0o755);
      writeFileSync(join(work, "sync.sh"), renderS3Sync());
      const run = spawnSync("sh", [join(work, "sync.sh")], {
        env: { PATH: `${work}:/usr/bin:/bin`, SITE: "_site", BUCKET: "s3://events" },
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      const calls = readFileSync(join(work, "calls"), "utf8").trim().split("\n");
      expect(calls).toHaveLength(syncPasses().length + 1);
      expect(calls.every((call) => call.startsWith("s3 sync _site s3://events "))).toBe(true);
      expect(calls.map((call) => call.includes("--delete"))).toEqual([
        ...calls.slice(1).map(() => false),
        true,
      ]);
      expect(calls[1]).toContain('--content-disposition attachment; filename="event.ics"');
      // Without a bucket the script stops before any call.
      const unset = spawnSync("sh", [join(work, "sync.sh")], {
        env: { PATH: `${work}:/usr/bin:/bin` },
        encoding: "utf8",
      });
      expect(unset.status).not.toBe(0);
      expect(unset.stderr).toContain("set BUCKET");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
