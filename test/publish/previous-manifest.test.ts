import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadPreviousManifest } from "../../src/publish/previous-manifest.ts";
import { writeTree } from "../helpers/files.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";

const PUBLISHED = {
  version: 1,
  generatedAt: "2025-03-01T10:00:00Z",
  snapshotFetchedAt: "2025-03-01T09:59:00Z",
  siteUrl: "https://events.example.org",
  calendars: [
    { id: "music", name: "Music", events: 12, url: "https://events.example.org/calendars/music/" },
  ],
  totals: { calendars: 1, events: 12 },
  contentHash: "sha256-00",
};

let work: string;
let lines: string[];
const log = (line: string) => lines.push(line);

/** The previous manifest of a site published at `siteUrl`, with an output folder that may hold one. */
const previousOf = (siteUrl: string, outputDir = work) =>
  loadPreviousManifest({ siteUrl, outputDir, publishedSite: siteUrl, log });

/** A published site answering every request with `status` and `body`; the paths asked for. */
async function serve(status: number, body: string): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const { origin } = await serveOnLoopback((request, response) => {
    paths.push(request.url ?? "");
    response.writeHead(status, { "content-type": "application/json" }).end(body);
  });
  return { url: origin, paths };
}

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "ecp-previous-"));
  lines = [];
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("loadPreviousManifest", () => {
  it("should prefer the local output's manifest", async () => {
    const output = join(work, "_site");
    await writeTree(output, { "api/manifest.json": JSON.stringify(PUBLISHED) });
    const site = await serve(200, JSON.stringify({ ...PUBLISHED, totals: { events: 99 } }));

    const found = await loadPreviousManifest({
      siteUrl: PUBLISHED.siteUrl,
      outputDir: output,
      publishedSite: site.url,
      log,
    });

    expect(found.manifest?.totals.events).toBe(12);
    expect(found.source).toBe(join(output, "api/manifest.json"));
    expect(site.paths).toEqual([]);
  });

  it("should fetch the published manifest at SITE_URL when there is no local output", async () => {
    const site = await serve(200, JSON.stringify(PUBLISHED));

    const found = await loadPreviousManifest({
      siteUrl: `${site.url}/events`,
      outputDir: join(work, "_site"),
      publishedSite: `${site.url}/events`,
      log,
    });

    expect(found.manifest).toEqual({
      calendars: [{ id: "music", name: "Music", events: 12 }],
      totals: { events: 12 },
    });
    expect(site.paths).toEqual(["/events/api/manifest.json"]);
    expect(lines).toEqual([`previous manifest: ${site.url}/events/api/manifest.json (12 events)`]);
  });

  it("should treat a site that is not published yet as a first build", async () => {
    const site = await serve(404, "not found");

    const found = await previousOf(site.url);

    expect(found.manifest).toBeNull();
    expect(lines).toEqual([
      `previous manifest: none (${site.url}/api/manifest.json not published yet; treating this as a first build)`,
    ]);
  });

  it("should treat an unreachable or silent site as a first build", async () => {
    const { origin: url } = await serveOnLoopback(() => undefined);

    const found = await loadPreviousManifest({
      siteUrl: url,
      outputDir: work,
      publishedSite: url,
      timeoutMs: 200,
      log,
    });

    expect(found.manifest).toBeNull();
    expect(lines[0]).toMatch(
      /The published site did not answer .*\/api\/manifest\.json within 200 ?ms \(after 3 attempts\); treating this as a first build/,
    );
  });

  it("should compare with nothing when no site is published (a local SITE_URL)", async () => {
    const found = await loadPreviousManifest({
      siteUrl: "http://localhost:8080",
      outputDir: work,
      publishedSite: null,
      log,
    });

    expect(found.manifest).toBeNull();
    expect(lines[0]).toMatch(
      /previous manifest: none \(no .*manifest\.json, and nothing published/,
    );
  });

  it("should ignore a local output built for another site, and a file that is not a manifest", async () => {
    const output = join(work, "_site");
    await writeTree(output, {
      "api/manifest.json": JSON.stringify({ ...PUBLISHED, siteUrl: "http://localhost:8080" }),
    });
    const site = await serve(200, '{"hello":"world"}');

    const found = await previousOf(site.url, output);

    expect(found.manifest).toBeNull();
    expect(lines[0]).toMatch(/was built for http:\/\/localhost:8080, not http:\/\/127\.0\.0\.1/);
    expect(lines[1]).toMatch(/is not a manifest \(totals\.events is missing\); ignored/);
  });
});
