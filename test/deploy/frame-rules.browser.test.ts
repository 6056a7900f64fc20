import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headersFor } from "../../src/build/headers.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { hasChromium } from "../helpers/system.ts";
import { REPRESENTATIVE_FILES, writeTree } from "./site-tree.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
};

/** Serves a folder the way the CDN does: the file, plus the netlify.toml headers for its path. */
async function serveSite(root: string): Promise<Server> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        ...headersFor(path),
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function serveHostPage(html: string): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  // "localhost" is another origin than 127.0.0.1, as another site would be.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const port = (server: Server) => (server.address() as AddressInfo).port;
const servers: Server[] = [];
let root: string;

describe.runIf(hasChromium())("frame rules in a browser", () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "ecp-frames-"));
    await writeTree(root, REPRESENTATIVE_FILES);
  });

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await rm(root, { recursive: true, force: true });
  });

  it("should show the embed page inside another site and block every other page", async () => {
    const site = await serveSite(root);
    servers.push(site);
    const origin = `http://127.0.0.1:${port(site)}`;
    const host = await serveHostPage(
      `<!doctype html><title>Host</title>
       <iframe id="embed" src="${origin}/embed/x/" title="Widget"></iframe>
       <iframe id="page" src="${origin}/calendars/x/" title="Page"></iframe>
       <iframe id="guide" src="${origin}/embed/" title="Guide"></iframe>`,
    );
    servers.push(host);

    const { browser, close } = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`http://localhost:${port(host)}/`, { waitUntil: "load", timeout: 20_000 });
      const heading = async (id: string) => {
        const frame = await (await page.$(`#${id}`))?.contentFrame();
        return frame
          ? await frame.evaluate(() => document.querySelector("h1")?.textContent ?? null)
          : null;
      };

      expect(await heading("embed")).toBe("Widget x");
      // A blocked frame shows the browser's error page instead of ours.
      expect(await heading("page")).not.toBe("Calendar x");
      expect(await heading("guide")).not.toBe("Embedding guide");
    } finally {
      await close();
    }
  });
});
