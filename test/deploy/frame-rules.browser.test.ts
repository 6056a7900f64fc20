import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser.ts";
import { writeTree } from "../helpers/files.ts";
import { REPRESENTATIVE_FILES } from "../helpers/representative-site.ts";
import { startHostServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

let root: string;
const closers: (() => Promise<void>)[] = [];

describe.runIf(hasChromium())("frame rules in a browser", () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "ecp-frames-"));
    await writeTree(root, REPRESENTATIVE_FILES);
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await rm(root, { recursive: true, force: true });
  });

  it("should show the embed page inside another site and block every other page", async () => {
    const site = await startStaticServer();
    site.setRoot(root);
    closers.push(site.close);
    const host = await startHostServer(() => ({
      "/": `<!doctype html><title>Host</title>
       <iframe id="embed" src="${site.origin}/embed/x/" title="Widget"></iframe>
       <iframe id="page" src="${site.origin}/calendars/x/" title="Page"></iframe>
       <iframe id="guide" src="${site.origin}/embed/" title="Guide"></iframe>`,
    }));
    closers.push(host.close);

    const { browser, close } = await launchBrowser();
    try {
      const page = await browser.newPage();
      // "localhost" is another origin than the site's 127.0.0.1, as another site would be.
      await page.goto(host.origin.replace("127.0.0.1", "localhost"), {
        waitUntil: "load",
        timeout: 20_000,
      });
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
