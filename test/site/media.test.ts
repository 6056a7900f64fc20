import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { localizeImages } from "../../src/site/media.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";

const PASSIVE =
  '<svg xmlns="http://www.w3.org/2000/svg"><text>alt: onerror=alert(1) &lt;b&gt;</text></svg>';
const FILES: Record<string, [string, string]> = {
  "/passive.svg": ["image/svg+xml", PASSIVE],
  "/copy-of-passive.svg": ["image/svg+xml", PASSIVE],
  "/script.svg": [
    "image/svg+xml",
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  ],
  "/handler.svg": [
    "image/svg+xml",
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
  ],
  "/page.html": ["text/html", "<h1>not an image</h1>"],
};

let origin: string;
let cacheDir: string;

function snapshotWithImages(paths: string[]) {
  const template = fixtureSnapshot.events[0] as CalendarEvent;
  const events = paths.map((path, i) => ({
    ...template,
    id: `img-${i}`,
    image: { url: `${origin}${path}`, alt: path, width: null, height: null },
  }));
  return { ...fixtureSnapshot, events };
}

describe("localizeImages", () => {
  beforeAll(async () => {
    ({ origin } = await serveOnLoopback((request, response) => {
      const file = FILES[request.url ?? ""];
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { "Content-Type": file[0] }).end(file[1]);
    }));
    cacheDir = await mkdtemp(join(tmpdir(), "ecp-media-"));
  });

  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("should publish images under the site, named by their bytes", async () => {
    const { snapshot, files, warnings } = await localizeImages(
      snapshotWithImages(["/passive.svg", "/copy-of-passive.svg"]),
      { urls: new SiteUrls("https://events.example.org"), cacheDir },
    );
    expect(warnings).toEqual([]);
    const [first, second] = snapshot.events.map((e) => e.image?.url);
    expect(first).toMatch(/^https:\/\/events\.example\.org\/media\/[0-9a-f]{32}\.svg$/);
    // Same bytes from two URLs (or a portal on another port): one file, one name.
    expect(second).toBe(first);
    expect(files.map((f) => f.path)).toHaveLength(1);
    expect(await readdir(join(cacheDir, "media"))).toContain(first?.split("/").pop());
  });

  it("should refuse active SVGs and non-images, keeping the original URL with a warning", async () => {
    const paths = ["/script.svg", "/handler.svg", "/page.html", "/missing.png"];
    const { snapshot, files, warnings } = await localizeImages(snapshotWithImages(paths), {
      urls: new SiteUrls("https://events.example.org"),
      cacheDir,
    });
    expect(files).toEqual([]);
    expect(snapshot.events.map((e) => e.image?.url)).toEqual(paths.map((p) => `${origin}${p}`));
    expect(warnings).toHaveLength(paths.length);
    expect(warnings.join("\n")).toMatch(
      /active content[\s\S]*active content[\s\S]*unsupported content type[\s\S]*HTTP 404/,
    );
  });
});
