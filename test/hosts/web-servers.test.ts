import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderApacheConfig } from "../../src/hosts/apache-config.ts";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import { headersFor, loadHeaderRules } from "../../src/hosts/headers.ts";
import { renderNginxConfig } from "../../src/hosts/nginx-config.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
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
 * and Apache serve a copy of the demo build in a folder of the document root
 * (a site with SITE_URL https://example.org/<folder>/, copied with rsync)
 * with the generated configuration, and every file answers with the headers
 * `headersFor` gives its path, as Netlify and `npm run preview` send them.
 * The folders are named as people name them: with a space, with accents,
 * and with what each server's syntax gives a meaning of its own (quotes,
 * `;`, `$`, braces).
 */

const FOLDERS = ["events", "my events", "événements", 'the "best"; $1 {events}'];

/** netlify.toml's rules as the build and `npm run headers` give them for a site at example.org. */
const RULES = withEmbedPolicy(loadHeaderRules(), ["https://example.org"]);

const HEADER_NAMES = [...new Set(RULES.flatMap((rule) => Object.keys(rule.values)))].filter(
  (name) => name !== "Content-Type",
);

let paths: string[];
/** A copy of the demo build for each folder, which both servers serve. */
const copies = new Map<string, ServedCopy>();

beforeAll(async () => {
  const site = await builtDemoSite();
  paths = (await listFiles(site.dir)).map(urlPathOf);
  for (const folder of FOLDERS) copies.set(folder, servedCopy(site.dir, folder));
});

afterAll(() => {
  for (const copy of copies.values()) copy.remove();
});

/** SITE_URL's folder as the site's settings hold it: percent-encoded, as in its links. */
const basePathOf = (folder: string) =>
  new SiteUrls(new URL(`/${folder}/`, "https://example.org").href).basePath;

/** Every file's differences from headersFor, asked with HEAD, 16 at a time. */
async function differences(server: WebServer, basePath: string): Promise<string[]> {
  const found: string[] = [];
  for (let start = 0; start < paths.length; start += 16) {
    await Promise.all(
      paths.slice(start, start + 16).map(async (path) => {
        const response = await fetch(`${server.origin}${basePath}${path}`, { method: "HEAD" });
        if (response.status !== 200) found.push(`${path}: HTTP ${response.status}`);
        const want = headersFor(path, RULES);
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

/** The pages answered without their policy, frame rule or nosniff. */
async function unprotectedPages(server: WebServer, basePath: string): Promise<string[]> {
  const pages = paths.filter((path) => path.endsWith("/") || path.endsWith(".html"));
  const found: string[] = [];
  for (const path of pages) {
    const response = await fetch(`${server.origin}${basePath}${path}`, { method: "HEAD" });
    const framable = /^\/embed\/[^/]+\//.test(path);
    if (!response.headers.get("content-security-policy")) found.push(`${path}: no policy`);
    if (!framable && response.headers.get("x-frame-options") !== "DENY")
      found.push(`${path}: no X-Frame-Options`);
    if (response.headers.get("x-content-type-options") !== "nosniff")
      found.push(`${path}: no nosniff`);
  }
  expect(pages.length).toBeGreaterThan(200);
  return found;
}

/** A missing page: the site's 404.html, with its headers. */
async function notFound(server: WebServer, basePath: string) {
  const response = await fetch(`${server.origin}${basePath}/calendars/nope/`);
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
  csp: headersFor("/404.html", RULES)["Content-Security-Policy"],
  frame: "DENY",
  isSitePage: true,
};

/** The tests of one server serving the copy in `folder`, started by `start`. */
function servingFolder(
  folder: string,
  start: (copy: ServedCopy, basePath: string) => Promise<WebServer>,
): void {
  const basePath = basePathOf(folder);
  let server: WebServer;
  beforeAll(async () => {
    server = await start(copies.get(folder) as ServedCopy, basePath);
  });
  afterAll(() => server?.stop());

  it("should send every file the headers netlify.toml gives it", async () => {
    expect(paths.length).toBeGreaterThan(500);
    expect(await differences(server, basePath)).toEqual([]);
  });

  it("should send every page its policy, frame rule and nosniff", async () => {
    expect(await unprotectedPages(server, basePath)).toEqual([]);
  });

  it("should answer a missing page with the site's 404 page and its headers", async () => {
    expect(await notFound(server, basePath)).toEqual(EXPECTED_404);
  });
}

describe.runIf(hasNginx())("nginx with the generated configuration", () => {
  describe.each(FOLDERS)("serving a site in /%s/", (folder) =>
    servingFolder(folder, (copy, basePath) =>
      startNginx(copy.work, (listen) =>
        renderNginxConfig({ basePath, root: copy.root, listen, serverName: "localhost" }, RULES),
      ),
    ),
  );
});

describe.runIf(hasApache())("Apache with the generated configuration", () => {
  describe.each(FOLDERS)("serving a site in /%s/", (folder) =>
    servingFolder(folder, (copy, basePath) =>
      startApache(copy.work, renderApacheConfig({ basePath }, RULES), copy.root),
    ),
  );
});
