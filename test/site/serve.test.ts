import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { NOW } from "../helpers/clock.ts";
import { waitUntil } from "../helpers/wait.ts";

const ROOT = resolve(import.meta.dirname, "../..");

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

describe("npm start", () => {
  let child: ChildProcess | undefined;
  const work = mkdtempSync(join(tmpdir(), "ecp-serve-"));

  afterAll(() => {
    child?.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ["at the host's root", ""],
    ["in SITE_URL's folder", "/events"],
  ])(
    "should serve the demo site %s with live reload and the production headers, and stop on SIGTERM",
    async (_where, folder) => {
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      // What `npm start -- --port <n>` runs, writing into a temporary folder instead of _site/.
      const args = [
        "src/launch.mjs",
        "src/cli/serve.ts",
        "--port",
        String(port),
        "--output",
        join(work, "_site"),
      ];
      child = spawn(process.execPath, args, {
        cwd: ROOT,
        env: {
          ...process.env,
          EVENT_API_URL: "",
          SITE_URL: folder ? `${origin}${folder}/` : "",
          SITE_NOW: NOW,
          EVENT_API_CACHE_DIR: join(work, ".cache"),
          // The server, its headers and the live reload, not the pictures links share as.
          SHARE_CARDS: "off",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let log = "";
      child.stdout?.on("data", (chunk) => {
        log += chunk;
      });
      child.stderr?.on("data", (chunk) => {
        log += chunk;
      });

      // It serves once its first build is written, however long that build takes.
      const running = child;
      await waitUntil(
        "npm start serving the site",
        () =>
          request(`${origin}${folder}/calendars/`)
            .then(async (response) => {
              await response.body.dump();
              return response.statusCode === 200;
            })
            .catch(() => false),
        {
          failed: () =>
            running.exitCode !== null ? `it exited (${running.exitCode}):\n${log}` : null,
        },
      );

      const page = await request(`${origin}${folder}/calendars/`);
      const html = await page.body.text();
      expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(html).toContain("reload-client.js");
      expect(html).toContain(`href="${origin}${folder}/calendars/"`);
      // Links, assets and the search form stay in the folder.
      expect(html).toContain(`href="${folder}/assets/site.css"`);
      expect(html).toContain(`action="${folder}/search/"`);
      const feed = await request(`${origin}${folder}/feed.xml`);
      expect(feed.statusCode).toBe(200);
      expect(await feed.body.text()).toContain(`<link>${origin}${folder}/</link>`);
      // The oEmbed endpoint answers as the host's function does; discovery names
      // it at the host's root, the static answer in a folder (src/oembed/discovery.ts).
      const calendarPage = `${origin}${folder}/calendars/culture/`;
      const query = new URLSearchParams({ url: calendarPage, maxwidth: "300" });
      const oembed = await request(`${origin}${folder}/oembed?${query}`);
      expect(oembed.statusCode).toBe(200);
      const answer = (await oembed.body.json()) as { width: number; html: string };
      expect([answer.width, answer.html.includes(' width="300" ')]).toEqual([300, true]);
      const calendarHtml = await (await request(calendarPage)).body.text();
      const discovery =
        /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(
          calendarHtml,
        )?.[1];
      expect(discovery).toBe(
        folder
          ? `${origin}${folder}/oembed/culture.json`
          : `${origin}/oembed?${new URLSearchParams({ url: calendarPage, format: "json" }).toString().replace(/&/g, "&amp;")}`,
      );

      const exited = new Promise<number | null>((done) =>
        child?.once("exit", (code) => done(code)),
      );
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    },
  );
});
