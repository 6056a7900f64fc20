import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useBrowser } from "../helpers/browser.ts";
import { writeTree } from "../helpers/files.ts";
import { REPRESENTATIVE_FILES } from "../helpers/representative-site.ts";
import { startHostServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

describe.runIf(hasChromium())("frame rules in a browser", () => {
  const chromium = useBrowser();
  let root: string;
  const closers: (() => Promise<void>)[] = [];

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
    const host = await startHostServer();
    closers.push(host.close);
    const url = host.add(`<!doctype html><title>Host</title>
       <iframe id="embed" src="${site.origin}/embed/x/" title="Widget"></iframe>
       <iframe id="page" src="${site.origin}/calendars/x/" title="Page"></iframe>
       <iframe id="guide" src="${site.origin}/embed/" title="Guide"></iframe>`);

    // "localhost" is another origin than the site's 127.0.0.1, as another site would be.
    const { page } = await chromium.open(url.replace("127.0.0.1", "localhost"));
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
  });
});
