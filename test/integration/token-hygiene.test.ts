import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { runScript } from "../helpers/demo-build.ts";
import { demoPart, firstOfEachCalendar } from "../helpers/demo-parts.ts";

/**
 * The ways a token can be written down: as is, percent-encoded (query
 * strings, form bodies), JSON-escaped, base64 (Basic-style headers), and its
 * secret part alone (`ecp_<public id>_<secret>`, docs/api.md): the id is
 * public, the secret is what must never leak.
 */
function tokenForms(token: string): string[] {
  const secret = /^ecp_[a-z0-9]{12}_(.+)$/.exec(token)?.[1];
  return [
    ...new Set([
      token,
      encodeURIComponent(token),
      new URLSearchParams({ t: token }).toString().slice(2),
      JSON.stringify(token).slice(1, -1),
      Buffer.from(token).toString("base64"),
      Buffer.from(token).toString("base64url"),
      ...(secret ? [secret] : []),
    ]),
  ];
}

/** Files below `dir` whose bytes (or gunzipped bytes) hold any form of the token. */
function filesHolding(dir: string, forms: readonly string[]): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const raw = readFileSync(path);
    const views = [raw];
    if (raw[0] === 0x1f && raw[1] === 0x8b) views.push(gunzipSync(raw));
    // File names too: a cache keyed by URL must not carry the token in its names.
    if (forms.some((form) => name.includes(form) || views.some((view) => view.includes(form))))
      found.push(name);
  }
  return found;
}

const holds = (text: string, forms: readonly string[]) => forms.filter((f) => text.includes(f));

/*
 * Share cards (the costliest part of a small build) and their cache are
 * drawn and scanned in one mode: the one that puts the token in the address
 * of every request the build makes.
 */
const MODES = [
  { auth: "bearer", env: "bearer", cards: "off" },
  { auth: "header:X-Api-Key", env: "header:X-Api-Key", cards: "off" },
  { auth: "query:api_key", env: "query:api_key", cards: "auto" },
] as const;

describe.each(MODES)("the API token with EVENT_API_AUTH=$env", ({ auth, env: authEnv, cards }) => {
  let work: string;
  let portal: RunningPortal;
  let forms: string[];
  let revokedForms: string[];
  let revoked: string;
  const api = (token: string) => ({
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: token,
    EVENT_API_AUTH: authEnv,
    SHARE_CARDS: cards,
  });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ecp-token-"));
    mkdirSync(join(work, "out"));
    // Where the token goes does not depend on how many events there are: part of the demo.
    portal = await startPortal({
      host: "127.0.0.1",
      port: 0,
      now: NOW,
      auth,
      dataset: demoPart(firstOfEachCalendar(8)),
    });
    forms = tokenForms(portal.token);
    // A token that was valid once: the shape a site owner's expired token has.
    revoked = portal.issueToken(portal.organizationId);
    portal.revokeToken(revoked);
    revokedForms = tokenForms(revoked);
    expect(forms.length).toBeGreaterThan(2);
  });

  afterAll(async () => {
    await portal?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("should find a planted token in every form it is searched for", () => {
    // Guards the scans below: a scanner that finds nothing would pass them all.
    const planted = join(work, "planted");
    mkdirSync(planted);
    const secretOnly = forms.at(-1) ?? "";
    writeFileSync(
      join(planted, "a.json"),
      JSON.stringify({ url: `/x?api_key=${encodeURIComponent(portal.token)}` }),
    );
    writeFileSync(join(planted, "b.gz"), gzipSync(`Authorization: Bearer ${portal.token}`));
    writeFileSync(join(planted, "c.txt"), `secret ${secretOnly}`);
    expect(filesHolding(planted, forms).sort()).toEqual(["a.json", "b.gz", "c.txt"]);
    rmSync(planted, { recursive: true });
  });

  it("should keep it out of the site, the cache and the build log", async () => {
    const cacheDir = join(work, "cache");
    const output = join(work, "out", "_site");
    const build = await runScript("src/cli/build.ts", ["--output", output], {
      ...api(portal.token),
      EVENT_API_CACHE_DIR: cacheDir,
    });
    expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
    // The build really talked to the portal with this token and cached what it read.
    expect(portal.counters.byStatus["200"] ?? 0).toBeGreaterThan(10);
    expect(readdirSync(cacheDir, { recursive: true }).length).toBeGreaterThan(0);

    expect(holds(build.stdout, forms)).toEqual([]);
    expect(holds(build.stderr, forms)).toEqual([]);
    expect(filesHolding(output, forms)).toEqual([]);
    expect(filesHolding(cacheDir, forms)).toEqual([]);
    expect(readdirSync(join(work, "out"))).toEqual(["_site"]);
  });

  it("should keep a rejected token out of the error, the log and the cache", async () => {
    const cacheDir = join(work, "cache");
    const failed = await runScript("src/cli/build.ts", ["--output", join(work, "out", "_site")], {
      ...api(revoked),
      EVENT_API_CACHE_DIR: cacheDir,
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^error: .*rejected the token/m);
    expect(holds(`${failed.stdout}${failed.stderr}`, revokedForms)).toEqual([]);
    expect(filesHolding(cacheDir, [...revokedForms, ...forms])).toEqual([]);
  });

  it("should keep it out of check-api's report, accepted or rejected", async () => {
    // Its fetch cache goes to the test's folder, never into the repository.
    const cache = { EVENT_API_CACHE_DIR: join(work, "check-api-cache") };
    const accepted = await runScript("src/cli/check-api.ts", [], {
      ...api(portal.token),
      ...cache,
    });
    expect(accepted.status, `${accepted.stdout}${accepted.stderr}`).toBe(0);
    expect(accepted.stdout).toMatch(/Token accepted/);
    expect(holds(`${accepted.stdout}${accepted.stderr}`, forms)).toEqual([]);

    const rejected = await runScript("src/cli/check-api.ts", [], { ...api(revoked), ...cache });
    expect(rejected.status).toBe(1);
    expect(rejected.stdout).toMatch(/rejected the token/);
    expect(holds(`${rejected.stdout}${rejected.stderr}`, revokedForms)).toEqual([]);
  });

  it("should keep it out of check-api's probing of other placements and the settings it prints", async () => {
    const cacheDir = join(work, "probe-cache");
    const wrongStart = authEnv === "bearer" ? "query:token" : "bearer";
    const probed = await runScript("src/cli/check-api.ts", [], {
      ...api(portal.token),
      EVENT_API_AUTH: wrongStart,
      EVENT_API_CACHE_DIR: cacheDir,
    });
    expect(probed.stdout).toContain(`The portal accepts the token as EVENT_API_AUTH=${authEnv}.`);
    expect(probed.stdout).toMatch(/^export EVENT_API_AUTH=/m);
    expect(holds(`${probed.stdout}${probed.stderr}`, forms)).toEqual([]);
    expect(filesHolding(cacheDir, forms)).toEqual([]);
  });
});
