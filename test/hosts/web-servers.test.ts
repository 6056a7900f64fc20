import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderApacheConfig } from "../../src/hosts/apache-config.ts";
import { headersFor, loadHeaderRules } from "../../src/hosts/headers.ts";
import { renderNginxConfig } from "../../src/hosts/nginx-config.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles } from "../helpers/files.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
import { hasApache, hasNginx } from "../helpers/system-packages.ts";
import {
  type ServedCopy,
  servedCopy,
  startApache,
  startNginx,
  type WebServer,
} from "../helpers/web-servers.ts";

/*
 * `npm run headers -- --format nginx|apache`, run for real: Debian's nginx
 * and Apache serve a copy of the demo build in an events/ folder (a site with
 * SITE_URL https://example.org/events/, copied with rsync) with the generated
 * configuration, and every file answers with the headers `headersFor` gives
 * its path, as Netlify and `npm run preview` send them.
 */

const FOLDER = "events";
const HEADER_NAMES = [
  ...new Set(loadHeaderRules().flatMap((rule) => Object.keys(rule.values))),
].filter((name) => name !== "Content-Type");

let copy: ServedCopy;
let paths: string[];

beforeAll(async () => {
  const site = await builtDemoSite();
  copy = servedCopy(site.dir, FOLDER);
  paths = (await listFiles(site.dir)).map(urlPathOf);
});

afterAll(() => copy?.remove());

/** Every file's differences from headersFor, asked with HEAD, 16 at a time. */
async function differences(server: WebServer): Promise<string[]> {
  const found: string[] = [];
  for (let start = 0; start < paths.length; start += 16) {
    await Promise.all(
      paths.slice(start, start + 16).map(async (path) => {
        const response = await fetch(`${server.origin}/${FOLDER}${path}`, { method: "HEAD" });
        if (response.status !== 200) found.push(`${path}: HTTP ${response.status}`);
        const want = headersFor(path);
        for (const name of HEADER_NAMES) {
          const got = response.headers.get(name);
          if (got !== (want[name] ?? null))
            found.push(`${path}: ${name} ${got} (want ${want[name]})`);
        }
        const type = want["Content-Type"];
        if (type && response.headers.get("content-type") !== type) {
          found.push(
            `${path}: Content-Type ${response.headers.get("content-type")} (want ${type})`,
          );
        }
      }),
    );
  }
  return found;
}

/** A missing page: the site's 404.html, with its headers. */
async function notFound(server: WebServer) {
  const response = await fetch(`${server.origin}/${FOLDER}/calendars/nope/`);
  const body = await response.text();
  return {
    status: response.status,
    csp: response.headers.get("content-security-policy"),
    frame: response.headers.get("x-frame-options"),
    isSitePage: body.includes('<link rel="stylesheet"'),
  };
}

const EXPECTED_404 = {
  status: 404,
  csp: headersFor("/404.html")["Content-Security-Policy"],
  frame: "DENY",
  isSitePage: true,
};

describe.runIf(hasNginx())("nginx with the generated configuration", () => {
  let server: WebServer;
  beforeAll(async () => {
    server = await startNginx(copy.work, (listen) =>
      renderNginxConfig({
        basePath: `/${FOLDER}`,
        root: copy.root,
        listen,
        serverName: "localhost",
      }),
    );
  });
  afterAll(() => server?.stop());

  it("should send every file the headers netlify.toml gives it", async () => {
    expect(paths.length).toBeGreaterThan(500);
    expect(await differences(server)).toEqual([]);
  });

  it("should answer a missing page with the site's 404 page and its headers", async () => {
    expect(await notFound(server)).toEqual(EXPECTED_404);
  });
});

describe.runIf(hasApache())("Apache with the generated configuration", () => {
  let server: WebServer;
  beforeAll(async () => {
    server = await startApache(
      copy.work,
      renderApacheConfig({ basePath: `/${FOLDER}` }),
      copy.root,
    );
  });
  afterAll(() => server?.stop());

  it("should send every file the headers netlify.toml gives it", async () => {
    expect(await differences(server)).toEqual([]);
  });

  it("should answer a missing page with the site's 404 page and its headers", async () => {
    expect(await notFound(server)).toEqual(EXPECTED_404);
  });
});
