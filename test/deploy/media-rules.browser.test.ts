import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headersFor } from "../../src/hosts/headers.ts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { writeTree } from "../helpers/files.ts";
import { type LoopbackServer, serveOnLoopback } from "../helpers/loopback-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * netlify.toml's rule for /media/* in Chromium: an SVG with a script, as a
 * portal could send one that slipped past the image checks, shows as an
 * image in a page and runs nothing when opened on its own. Its script asks
 * a beacon synchronously, so a run is recorded before the navigation ends;
 * the same file outside /media/ shows that it would run.
 */

const ACTIVE_SVG = (
  beacon: string,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
<rect width="40" height="40" fill="#c00"/>
<script>
var request = new XMLHttpRequest();
request.open("GET", "${beacon}/ran?" + encodeURIComponent(location.pathname), false);
try { request.send(); } catch (error) {}
</script>
</svg>
`;

let root: string;
let beacon: LoopbackServer;
const ran: string[] = [];
const servers: PreviewServer[] = [];

describe.runIf(hasChromium())("the rule for /media/* in a browser", () => {
  beforeAll(async () => {
    beacon = await serveOnLoopback((request, response) => {
      ran.push(request.url ?? "");
      response.writeHead(204, { "Access-Control-Allow-Origin": "*" }).end();
    });
    root = await mkdtemp(join(tmpdir(), "ecp-media-rules-"));
    await writeTree(root, {
      "media/active.svg": ACTIVE_SVG(beacon.origin),
      "assets/active.svg": ACTIVE_SVG(beacon.origin),
      "index.html":
        '<!doctype html><meta charset="utf-8"><title>Event</title><img id="image" src="/media/active.svg" alt="">',
    });
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    await rm(root, { recursive: true, force: true });
  });

  /** What a browser shows and runs of the site served with `headers`. */
  async function visit(headers?: (path: string) => Record<string, string>) {
    const server = await startPreviewServer({ root, headers });
    servers.push(server);
    ran.length = 0;
    const { browser, close } = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${server.origin}/`, { waitUntil: "load", timeout: 20_000 });
      const shown = await page.evaluate(
        () => (document.getElementById("image") as HTMLImageElement).naturalWidth,
      );
      const open = async (path: string) => {
        // A download ends the navigation with an error; what ran is recorded either way.
        await page
          .goto(`${server.origin}${path}`, { waitUntil: "load", timeout: 20_000 })
          .catch(() => undefined);
      };
      await open("/media/active.svg");
      await open("/assets/active.svg");
      return { shown, ran: [...ran] };
    } finally {
      await close();
    }
  }

  it("should show a copied image in a page and run nothing of it opened on its own", async () => {
    const { shown, ran } = await visit();
    expect(shown).toBe(40);
    // Outside /media/ the same file runs: the beacon does record a run.
    expect(ran).toEqual([`/ran?${encodeURIComponent("/assets/active.svg")}`]);
  });

  it("should keep it inert by its policy alone, where a file is shown rather than downloaded", async () => {
    const { ran } = await visit((path) => {
      const { "Content-Disposition": _, ...headers } = headersFor(path);
      return headers;
    });
    expect(ran).toEqual([`/ran?${encodeURIComponent("/assets/active.svg")}`]);
  });
});
