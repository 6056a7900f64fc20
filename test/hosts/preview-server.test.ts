import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { systemDependency } from "../helpers/system-packages.ts";

/** A file everyone, root too, finds but may not read: Linux's write-only kernel setting. */
const WRITE_ONLY_FILE = "/proc/sys/vm/drop_caches";

let root: string;
let server: PreviewServer;

const get = async (path: string, method: "GET" | "HEAD" = "GET") => {
  const response = await request(`${server.origin}${path}`, { method });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: await response.body.text(),
  };
};

describe("startPreviewServer", () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "ecp-preview-"));
    await mkdir(join(root, "calendars", "x"), { recursive: true });
    await mkdir(join(root, "embed", "x"), { recursive: true });
    await writeFile(join(root, "index.html"), "<h1>Home</h1>");
    await writeFile(join(root, "404.html"), "<h1>Not here</h1>");
    await writeFile(join(root, "calendars", "x", "index.html"), "<h1>X</h1>");
    await writeFile(
      join(root, "calendars", "x", "calendar.ics"),
      "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
    );
    await writeFile(join(root, "embed", "x", "index.html"), "<h1>Widget</h1>");
    server = await startPreviewServer({ root });
  });

  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  it("should serve folders by their index.html with the production headers", async () => {
    const page = await get("/calendars/x/");
    expect(page.status).toBe(200);
    expect(page.body).toBe("<h1>X</h1>");
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    const embed = await get("/embed/x/");
    expect(embed.headers["content-security-policy"]).toContain("frame-ancestors *");
  });

  it("should name the origin the browser asked for beside 'self' in the embed pages' policy", async () => {
    // WebKit matches 'self' against a sandboxed frame's opaque origin (src/hosts/embed-policy.ts).
    const port = new URL(server.origin).port;
    const byAddress = await get("/embed/x/");
    expect(byAddress.headers["content-security-policy"]).toContain(
      `script-src 'self' ${server.origin};`,
    );
    const byName = await request(`${server.origin}/embed/x/`, {
      headers: { host: `localhost:${port}` },
    });
    await byName.body.dump();
    expect(byName.headers["content-security-policy"]).toContain(
      `script-src 'self' http://localhost:${port};`,
    );
    // A Host that is not one host and port names nothing beyond the server's own origin.
    const odd = await request(`${server.origin}/embed/x/`, {
      headers: { host: "a b; script-src *" },
    });
    await odd.body.dump();
    expect(odd.headers["content-security-policy"]).toContain(`script-src 'self' ${server.origin};`);
  });

  it("should send calendars as text/calendar", async () => {
    const ics = await get("/calendars/x/calendar.ics");
    expect(ics.headers["content-type"]).toBe("text/calendar; charset=utf-8");
  });

  it("should answer missing pages with the site's 404 page and status", async () => {
    const missing = await get("/nothing/here/");
    expect(missing.status).toBe(404);
    expect(missing.body).toBe("<h1>Not here</h1>");
  });

  it("should never serve files outside the site folder", async () => {
    for (const path of [
      "/../../etc/passwd",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/..%2f..%2fetc%2fpasswd",
    ]) {
      const response = await get(path);
      expect(response.status, path).not.toBe(200);
      expect(response.body, path).not.toContain("root:");
    }
    expect((await get("/%E0%A4%A")).status).toBe(400);
  });

  it("should answer a file that cannot be opened as missing, and go on serving", async () => {
    // What a rebuild does to a file between the moment it is found and the
    // moment it is read (removed, replaced): the answer is lost, not the server.
    if (!systemDependency(`Linux's ${WRITE_ONLY_FILE}`, () => existsSync(WRITE_ONLY_FILE))) return;
    await symlink(WRITE_ONLY_FILE, join(root, "unreadable.html"));
    for (let round = 0; round < 3; round++) {
      expect((await get("/unreadable.html")).status).toBe(404);
    }
    const home = await get("/");
    expect(home.status).toBe(200);
    expect(home.body).toBe("<h1>Home</h1>");
  });

  it("should answer HEAD without a body", async () => {
    const head = await get("/", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });
});

describe("startPreviewServer in a folder of the host", () => {
  let site: string;
  let inFolder: PreviewServer;

  beforeAll(async () => {
    site = await mkdtemp(join(tmpdir(), "ecp-preview-folder-"));
    await mkdir(join(site, "embed", "x"), { recursive: true });
    await writeFile(join(site, "index.html"), "<h1>Home</h1>");
    await writeFile(join(site, "404.html"), "<h1>Not here</h1>");
    await writeFile(join(site, "embed", "x", "index.html"), "<h1>Widget</h1>");
    inFolder = await startPreviewServer({ root: site, basePath: "/events" });
  });

  afterAll(async () => {
    await inFolder.close();
    await rm(site, { recursive: true, force: true });
  });

  const fetchPath = async (path: string) => {
    const response = await request(`${inFolder.origin}${path}`);
    return {
      status: response.statusCode,
      headers: response.headers,
      body: await response.body.text(),
    };
  };

  it("should serve the site under its folder, with the headers of its own paths", async () => {
    expect(await fetchPath("/events/")).toMatchObject({ status: 200, body: "<h1>Home</h1>" });
    const embed = await fetchPath("/events/embed/x/");
    expect(embed.body).toBe("<h1>Widget</h1>");
    expect(embed.headers["content-security-policy"]).toContain("frame-ancestors *");
  });

  it("should send the host's root to the folder, and nothing of the site outside it", async () => {
    const root = await fetchPath("/");
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe("/events/");
    expect(await fetchPath("/embed/x/")).toMatchObject({ status: 404, body: "<h1>Not here</h1>" });
  });

  it("should serve a folder whose name is percent-encoded in SITE_URL", async () => {
    const spaced = await startPreviewServer({ root: site, basePath: "/my%20events" });
    try {
      const response = await request(`${spaced.origin}/my%20events/embed/x/`);
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe("<h1>Widget</h1>");
      const root = await request(`${spaced.origin}/`);
      await root.body.dump();
      expect(root.headers.location).toBe("/my%20events/");
    } finally {
      await spaced.close();
    }
  });
});
