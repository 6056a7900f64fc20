import { open, stat } from "node:fs/promises";
import {
  createServer,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { paths } from "../model/url-scheme.ts";
import { serveOembed } from "../oembed/serve-folder.ts";
import { withEmbedPolicy } from "./embed-policy.ts";
import { defaultHeaderRules, headersFor } from "./headers.ts";
import { requestOrigin } from "./site-rules.ts";

/**
 * Serves a built site the way the CDN does: the files, their content types,
 * the headers netlify.toml gives each path (Content-Security-Policy, frame
 * rules, CORS, cache lifetimes) and /404.html for missing pages. Used by
 * `npm run preview` and by the tests, so what is checked locally is what the
 * CDN sends. A site published in a folder (SITE_URL with a path, such as a
 * GitHub Pages project site) is served in that folder, as its host will.
 * It also answers the oEmbed endpoint (`{site}/oembed`, src/oembed/endpoint.ts)
 * as the Netlify and Cloudflare Pages functions do, unless told the host runs
 * no functions.
 */

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".ics": "text/calendar; charset=utf-8",
};

export interface PreviewServer {
  readonly origin: string;
  /** The folder served from now on (a test may start the server before the build that needs its origin). */
  setRoot(root: string): void;
  close(): Promise<void>;
}

export interface PreviewOptions {
  readonly root?: string;
  readonly host?: string;
  readonly port?: number;
  /** The folder the site is published in ("/events", no trailing slash); "" for a host's root. */
  readonly basePath?: string;
  /**
   * The custom headers of a site path requested at `origin` (the server as
   * the browser named it): netlify.toml's rules, the embed pages naming
   * that origin, unless given; a host that sends none (GitHub Pages) is
   * `() => ({})`.
   */
  readonly headers?: (sitePath: string, origin: string) => Record<string, string>;
  /** Whether `{site}/oembed` answers (default true); a host without functions serves only files. */
  readonly oembedEndpoint?: boolean;
}

export async function startPreviewServer(options: PreviewOptions = {}): Promise<PreviewServer> {
  let root = options.root ? normalize(options.root) : "";
  const base = options.basePath ?? "";
  // Requests are matched decoded, as servers match them; SITE_URL holds the folder encoded.
  const folder = decodedFolder(base);
  const headersOf =
    options.headers ??
    ((sitePath: string, origin: string) =>
      headersFor(sitePath, withEmbedPolicy(defaultHeaderRules(), [origin])));
  let listening = "";
  const server = createServer(async (request, response) => {
    const origin = requestOrigin(request.headers.host) ?? listening;
    let requested: string;
    try {
      requested = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (folder && (requested === "/" || requested === folder)) {
      response.writeHead(302, { Location: `${base}/` }).end();
      return;
    }
    // Outside the site's folder there is nothing of the site.
    const path = !folder
      ? requested
      : requested.startsWith(`${folder}/`)
        ? requested.slice(folder.length)
        : null;
    if (path === paths.oembedEndpoint() && root && options.oembedEndpoint !== false) {
      await serveOembed(request, response, root);
      return;
    }
    const file = path === null ? null : await resolveFile(root, path);
    if (file && path !== null) {
      // netlify.toml's own Content-Type (feeds, calendars) wins over the extension's.
      const headers = {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        ...headersOf(path, origin),
      };
      if (request.method === "HEAD") {
        response.writeHead(200, headers).end();
        return;
      }
      if (await sendFile(response, file, 200, headers)) return;
    }
    // Missing, or gone since it was found: the site's 404 page, as the host answers.
    const notFound = root ? await resolveFile(root, "/404.html") : null;
    const headers = { "Content-Type": TYPES[".html"], ...headersOf("/404.html", origin) };
    if (!(notFound && (await sendFile(response, notFound, 404, headers)))) {
      response.writeHead(404, headers).end("Not found");
    }
  });
  listening = await listen(server, options.host ?? "127.0.0.1", options.port ?? 0);
  return {
    origin: listening,
    setRoot: (dir) => {
      root = normalize(dir);
    },
    close: () => close(server),
  };
}

function decodedFolder(basePath: string): string {
  try {
    return decodeURIComponent(basePath);
  } catch {
    return basePath;
  }
}

/**
 * Sends a file with its status and headers, or returns false if it cannot be
 * opened. The file is opened before anything is written: a rebuild may remove
 * or replace it after it was found, and that must cost one answer, not the
 * server (a stream's unhandled error would end the process).
 */
async function sendFile(
  response: ServerResponse,
  file: string,
  status: number,
  headers: OutgoingHttpHeaders,
): Promise<boolean> {
  const handle = await open(file).catch(() => null);
  if (!handle) return false;
  response.writeHead(status, headers);
  // A read that fails midway cuts the answer short; the stream closes the file either way.
  pipeline(handle.createReadStream(), response).catch(() => undefined);
  return true;
}

/** The file for a URL path inside root (folders serve their index.html), or null. */
async function resolveFile(root: string, path: string): Promise<string | null> {
  if (!root) return null;
  let file = normalize(join(root, path));
  if (file !== root && !file.startsWith(root + sep)) return null;
  const info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = join(file, "index.html");
    return (await stat(file).catch(() => null))?.isFile() ? file : null;
  }
  return info?.isFile() ? file : null;
}

function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve(`http://${host.includes(":") ? `[${host}]` : host}:${bound}`);
    });
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
