import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { headersFor } from "../../src/build/headers.ts";

/**
 * A small static server on 127.0.0.1 that answers like the CDN: the built
 * files, their content types and the headers netlify.toml gives each path
 * (read through src/build/headers.ts), so the browser enforces the real
 * Content-Security-Policy and frame rules.
 */
const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".ics": "text/calendar; charset=utf-8",
};

export interface RunningServer {
  readonly origin: string;
  /** Files served from here on; set once the build (which needs the origin) is done. */
  setRoot(root: string): void;
  close(): Promise<void>;
}

export async function startStaticServer(): Promise<RunningServer> {
  let root = "";
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(root, path));
    if (!root || !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    // netlify.toml's own Content-Type (feeds, calendars) wins over the extension's.
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      ...headersFor(path),
    });
    createReadStream(file).pipe(res);
  });
  return {
    origin: await listen(server),
    setRoot: (dir) => {
      root = normalize(dir);
    },
    close: () => close(server),
  };
}

/** Serves fixed HTML pages (the "other site" that embeds the widget). */
export async function startHostServer(
  pages: () => Readonly<Record<string, string>>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const html = pages()[path];
    if (html === undefined) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  return { origin: await listen(server), close: () => close(server) };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve(`http://127.0.0.1:${port}`);
    });
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
