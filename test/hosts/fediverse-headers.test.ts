import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderApacheConfig } from "../../src/hosts/apache-config.ts";
import { renderCloudflareHeaders } from "../../src/hosts/headers-file.ts";
import { renderNginxConfig } from "../../src/hosts/nginx-config.ts";
import { syncPasses } from "../../src/hosts/s3-upload.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { listFiles } from "../helpers/files.ts";
import { headersFromFile, readHeadersFile } from "../helpers/headers-file.ts";
import { buildPluginSite } from "../helpers/plugin-site.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
import { hasApache, hasNginx, hasPythonModule, SYSTEM_PYTHON } from "../helpers/system-packages.ts";
import { siteWith } from "../helpers/test-site.ts";
import { type ServedCopy, servedCopy, startApache, startNginx } from "../helpers/web-servers.ts";

/*
 * The fediverse account's files on every host that can serve them
 * (docs/followers.md, "What each host can do"): WebFinger as
 * application/jrd+json, the ActivityPub files as application/activity+json,
 * both readable from any origin, from the rules every host's configuration
 * is written from; the public JSON beside them keeps its own type.
 */

const JRD = "application/jrd+json";
const ACTIVITY = "application/activity+json";

let files: string[];
let copy: ServedCopy;
let root: string | undefined;

/** What each file must be served as: null for files these rules are not about. */
function wanted(path: string): string | null {
  if (path === "/.well-known/webfinger") return JRD;
  if (path.startsWith("/ap/")) return ACTIVITY;
  if (path.startsWith("/api/")) return "application/json";
  return null;
}

beforeAll(async () => {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const site = siteWith({ fediverse: { username: "events", publicKeyPem } });
  const built = await buildPluginSite({ snapshot: fixtureSnapshot, site });
  root = built.root;
  const { outputDir } = built;
  files = (await listFiles(outputDir)).map(urlPathOf).filter((path) => wanted(path) !== null);
  copy = servedCopy(outputDir, "");
}, 120_000);

afterAll(() => {
  copy?.remove();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the fediverse account's files on each host", () => {
  it("should be built: WebFinger, the actor, the outbox and an object per event", () => {
    expect(files).toContain("/.well-known/webfinger");
    expect(files).toContain("/ap/actor.json");
    expect(files).toContain("/ap/outbox/1.json");
    expect(files.filter((path) => path.startsWith("/ap/events/")).length).toBeGreaterThan(5);
  });

  it("should get their types and CORS from Cloudflare Pages' _headers", () => {
    const rules = readHeadersFile(renderCloudflareHeaders());
    const wrong = files.flatMap((path) => {
      const headers = headersFromFile(rules, path);
      const ok =
        headers["Content-Type"] === wanted(path) && headers["Access-Control-Allow-Origin"] === "*";
      return ok ? [] : [`${path}: ${JSON.stringify(headers)}`];
    });
    expect(wrong).toEqual([]);
  });

  it.runIf(hasPythonModule("fnmatch"))("should be uploaded to a bucket with their types", () => {
    const passes = syncPasses();
    const program = `
import fnmatch, json, sys
data = json.load(sys.stdin)
out = []
for path in data["files"]:
    taken = None
    for index, filters in enumerate(data["passes"]):
        included = True
        for kind, pattern in filters:
            if fnmatch.fnmatch(path, pattern):
                included = kind == "include"
        if included and taken is None:
            taken = index
    out.append(taken)
json.dump(out, sys.stdout)
`;
    const run = spawnSync(SYSTEM_PYTHON, ["-c", program], {
      input: JSON.stringify({
        files: files.map((path) => path.slice(1)),
        passes: passes.map((pass) => pass.filters),
      }),
      encoding: "utf8",
    });
    const taken = JSON.parse(run.stdout) as (number | null)[];
    const types = taken.map((index) =>
      index === null ? null : passes[index]?.headers["Content-Type"],
    );
    expect(types).toEqual(files.map(wanted));
  });

  const served = async (origin: string) => {
    const wrong: string[] = [];
    for (const path of files) {
      const response = await fetch(origin + path);
      await response.arrayBuffer();
      const type = response.headers.get("content-type");
      const cors = response.headers.get("access-control-allow-origin");
      if (response.status !== 200 || type !== wanted(path) || cors !== "*") {
        wrong.push(`${path}: ${response.status} ${type} ${cors}`);
      }
    }
    return wrong;
  };

  it.runIf(hasNginx())(
    "should be served so by nginx with the generated configuration",
    async () => {
      const server = await startNginx(copy.work, (listen) =>
        renderNginxConfig({ basePath: "", root: copy.root, listen, serverName: "localhost" }),
      );
      try {
        expect(await served(server.origin)).toEqual([]);
      } finally {
        await server.stop();
      }
    },
  );

  it.runIf(hasApache())(
    "should be served so by Apache with the generated configuration",
    async () => {
      const server = await startApache(copy.work, renderApacheConfig({ basePath: "" }), copy.root);
      try {
        expect(await served(server.origin)).toEqual([]);
      } finally {
        await server.stop();
      }
    },
  );
});
