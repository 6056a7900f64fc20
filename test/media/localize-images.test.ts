import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { crc32 } from "node:zlib";
import { Renderer } from "@takumi-rs/core";
import { beforeAll, describe, expect, it } from "vitest";
import type { LookupFunction } from "../../src/media/address-policy.ts";
import {
  type ImageLimits,
  type LocalizedImages,
  localizeImages,
} from "../../src/media/localize-images.ts";
import type { CalendarEvent, PortalSnapshot } from "../../src/model/types.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";
import { calendarEvent } from "../helpers/events.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { decodePng } from "../helpers/png.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/**
 * The image stage against a hostile image server on loopback: every answer
 * a portal's editor (or the host an image URL names) can give, and what the
 * site publishes of it. What is published is read back with the tests' own
 * PNG decoder (test/helpers/png.ts).
 */

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const banner = (fill: string) =>
  `<svg ${SVG_NS} width="1200" height="630" viewBox="0 0 1200 630"><rect width="1200" height="630" fill="${fill}"/></svg>`;

/** The ways an active SVG slipped past the old filter. */
const ACTIVE_SVGS: Record<string, Buffer> = {
  "/utf16-script.svg": Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(
      `<svg ${SVG_NS} width="400" height="200"><script>alert(document.domain)</script><rect width="400" height="200" fill="#2b8a3e"/></svg>`,
      "utf16le",
    ),
  ]),
  "/prefixed-script.svg": Buffer.from(
    `<svg ${SVG_NS} xmlns:s="http://www.w3.org/2000/svg" width="400" height="200"><s:script>alert(1)</s:script><s:rect width="400" height="200" fill="#2b8a3e"/></svg>`,
  ),
  "/xhtml-script.svg": Buffer.from(
    `<svg ${SVG_NS} width="400" height="200"><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script><rect width="400" height="200" fill="#2b8a3e"/></svg>`,
  ),
  "/entity-link.svg": Buffer.from(
    `<svg ${SVG_NS} ${XLINK} width="400" height="200"><a xlink:href="&#106;avascript:alert(1)"><rect width="400" height="200" fill="#2b8a3e"/></a></svg>`,
  ),
  "/set-link.svg": Buffer.from(
    `<svg ${SVG_NS} width="400" height="200"><a href="#"><set attributeName="href" to="javascript:alert(1)"/><rect width="400" height="200" fill="#2b8a3e"/></a></svg>`,
  ),
};

/** PNG chunks, as the format writes them (PNG 5.3). */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A 30000 x 30000 1-bit greyscale PNG header: 900 megapixels announced in a few hundred bytes. */
function bombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", Buffer.alloc(200)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

let photo: Buffer;
let jpeg: Buffer;
let origin: string;
let port: number;
/** What the server saw: requests per path, conditional ones, the most at once. */
const seen = {
  requests: new Map<string, number>(),
  notModified: 0,
  inFlight: 0,
  mostInFlight: 0,
  bytesSent: new Map<string, number>(),
};
/** What /replaced.png is now; a test replaces it. */
let replaced = { etag: '"v1"', fill: "#c92a2a" };
const drawn = new Map<string, Buffer>();
/** What /flaky.png answers now. */
let flaky = 200;

async function raster(fill: string, format: "png" | "jpeg", width = 320, height = 200) {
  const key = `${fill}/${format}/${width}x${height}`;
  const cached = drawn.get(key);
  if (cached) return cached;
  const bytes = await new Renderer().render(
    { type: "container", style: { width, height, backgroundColor: fill } },
    { width, height, format },
  );
  drawn.set(key, bytes);
  return bytes;
}

/** Sends bytes one by one, every `everyMs`, at most `max`: bounded in count and time. */
function trickle(
  response: ServerResponse,
  path: string,
  byte: number,
  max: number,
  everyMs: number,
) {
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed || sent >= max) {
      clearInterval(timer);
      response.end();
      return;
    }
    response.write(Buffer.from([byte]));
    seen.bytesSent.set(path, ++sent);
  }, everyMs);
  response.on("close", () => clearInterval(timer));
}

/** An endless body, in 64 KB pieces, stopped by the client or after 64 MB. */
function endless(response: ServerResponse, path: string) {
  const piece = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  const pump = () => {
    while (!response.destroyed && sent < 64 * 1024 * 1024) {
      sent += piece.length;
      seen.bytesSent.set(path, sent);
      if (!response.write(piece)) return void response.once("drain", pump);
    }
    response.end();
  };
  pump();
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? "").split("?")[0] ?? "";
  seen.requests.set(path, (seen.requests.get(path) ?? 0) + 1);
  seen.inFlight++;
  seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
  response.on("close", () => seen.inFlight--);
  const send = (type: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    void response.writeHead(200, { "Content-Type": type, ...headers }).end(body);

  if (path in ACTIVE_SVGS) return send("image/svg+xml", ACTIVE_SVGS[path] as Buffer);
  switch (path) {
    case "/banner.svg":
    case "/copy-of-banner.svg":
      return send("image/svg+xml", banner("#0b7285"));
    case "/photo.png":
      return send("image/png", photo);
    case "/photo.jpg":
      return send("image/jpeg", jpeg);
    case "/page-as.png":
      return send("image/png", "<!doctype html><title>x</title><script>alert(1)</script>");
    case "/cut-short.png":
      return send("image/png", photo.subarray(0, photo.length - 40));
    case "/bomb.png":
      return send("image/png", bombPng());
    case "/page.html":
      return send("text/html", "<h1>not an image</h1>");
    case "/noise.png":
      response.writeHead(200, { "Content-Type": "image/png" });
      return trickle(response, path, 0x89, 11, 5);
    case "/trickle.png":
      response.writeHead(200, { "Content-Type": "image/png" });
      return trickle(response, path, 0x89, 400, 25);
    case "/endless.png":
      response.writeHead(200, { "Content-Type": "image/png" });
      return endless(response, path);
    case "/announced-large.png":
      // Announces 11 MB and sends nothing: refused on the header alone.
      response.writeHead(200, { "Content-Type": "image/png", "Content-Length": "11534336" });
      return void response.flushHeaders();
    case "/slow-drawing.svg":
      return send(
        "image/svg+xml",
        `<svg ${SVG_NS} width="1200" height="630"><filter id="f"><feMorphology radius="300"/><feGaussianBlur stdDeviation="300"/></filter><rect width="1200" height="630" filter="url(#f)"/></svg>`,
      );
    case "/slow.png":
      await new Promise((resolve) => setTimeout(resolve, 40));
      return send("image/png", photo);
    case "/replaced.png": {
      const headers = { ETag: replaced.etag, "Cache-Control": "no-cache" };
      if (request.headers["if-none-match"] === replaced.etag) {
        seen.notModified++;
        return void response.writeHead(304, headers).end();
      }
      return send("image/png", await raster(replaced.fill, "png"), headers);
    }
    case "/to-localhost.png":
      return void response.writeHead(302, { Location: `http://localhost:${port}/photo.png` }).end();
    case "/loop.png":
      return void response.writeHead(302, { Location: "/loop.png" }).end();
    case "/flaky.png":
      if (flaky === 200) return send("image/png", photo);
      return void response.writeHead(flaky).end();
    default:
      return void response.writeHead(404).end();
  }
}

let event = 0;
function snapshotOf(urls: readonly string[]): PortalSnapshot {
  const events: CalendarEvent[] = urls.map((url) =>
    calendarEvent({
      id: `e${++event}`,
      calendarId: "community",
      title: url,
      start: "2026-04-01T10:00:00+02:00",
      end: "2026-04-01T11:00:00+02:00",
      image: { url, alt: "A picture", width: null, height: null },
    }),
  );
  return {
    source: "test",
    fetchedAt: "2026-03-20T12:00:00Z",
    calendars: [],
    events,
    warnings: [],
  } as unknown as PortalSnapshot;
}

const SITE = new SiteUrls("https://events.example.org");
/** A small size limit; the tests of deadlines set their own, short ones. */
const QUICK: Partial<ImageLimits> = { maxBytes: 512 * 1024 };

async function localize(
  paths: readonly string[],
  options: {
    cacheDir?: string;
    portalUrl?: string | null;
    allowHosts?: string[];
    limits?: Partial<ImageLimits>;
    resolve?: LookupFunction;
    base?: string;
  } = {},
): Promise<LocalizedImages & { cacheDir: string }> {
  const cacheDir = options.cacheDir ?? tempDir("ecp-media-");
  const snapshot = snapshotOf(paths.map((path) => `${options.base ?? origin}${path}`));
  const result = await localizeImages(snapshot, {
    urls: SITE,
    cacheDir,
    portalUrl: options.portalUrl === undefined ? origin : options.portalUrl,
    images: { allowHosts: options.allowHosts ?? [] },
    limits: { ...QUICK, ...options.limits },
    resolve: options.resolve,
  });
  return { ...result, cacheDir };
}

/** Each published file, read back: it must be the picture its event says. */
function publishedPictures(result: LocalizedImages) {
  return result.snapshot.events.flatMap((e) => {
    if (!e.image) return [];
    const name = e.image.url.split("/").pop() as string;
    const file = result.files.find((f) => f.path === `/media/${name}`);
    if (!file) throw new Error(`${e.image.url} is not among the files`);
    return [{ event: e, bytes: readFileSync(file.cachePath), name }];
  });
}

describe("localizeImages", () => {
  beforeAll(async () => {
    photo = await raster("#1864ab", "png");
    jpeg = await raster("#e67700", "jpeg", 300, 500);
    const server = await serveOnLoopback((request, response) => void handle(request, response));
    origin = server.origin;
    port = Number(new URL(origin).port);
  });

  it("should publish images under the site, named by their bytes, with their real size", async () => {
    const result = await localize(["/photo.png", "/photo.jpg", "/photo.png?again"]);
    expect(result.warnings).toEqual([]);
    const [png, jpg, again] = result.snapshot.events.map((e) => e.image);
    expect(png?.url).toMatch(/^https:\/\/events\.example\.org\/media\/[0-9a-f]{32}\.png$/);
    expect(jpg?.url).toMatch(/\.jpg$/);
    // The same bytes from another URL: one file, one name.
    expect(again?.url).toBe(png?.url);
    expect(result.files).toHaveLength(2);
    expect([png?.width, png?.height]).toEqual([320, 200]);
    expect([jpg?.width, jpg?.height]).toEqual([300, 500]);
    expect(png?.alt).toBe("A picture");
  });

  it("should publish an SVG as a PNG drawn from it, at its shape, 1200 pixels on its longer side", async () => {
    const result = await localize(["/banner.svg", "/copy-of-banner.svg"]);
    expect(result.warnings).toEqual([]);
    const [picture] = publishedPictures(result);
    expect(picture?.name).toMatch(/\.png$/);
    const png = decodePng(picture?.bytes as Buffer);
    expect([png.width, png.height]).toEqual([1200, 630]);
    expect([picture?.event.image?.width, picture?.event.image?.height]).toEqual([1200, 630]);
    expect(png.hexAt(600, 315)).toBe("#0b7285");
    expect(result.files).toHaveLength(1);
  });

  it("should publish active SVGs only as inert pictures of them (UTF-16, prefixed and XHTML scripts, javascript: links)", async () => {
    const paths = Object.keys(ACTIVE_SVGS);
    const result = await localize(paths);
    const pictures = publishedPictures(result);
    // Published or refused, never as an SVG document: each one published is a PNG of its size.
    for (const { bytes, event: e, name } of pictures) {
      expect(name).toMatch(/\.png$/);
      const png = decodePng(bytes);
      expect([png.width, png.height]).toEqual([e.image?.width, e.image?.height]);
      expect(png.hexAt(600, 300)).toBe("#2b8a3e");
      expect(bytes.includes("script")).toBe(false);
      expect(bytes.includes("javascript")).toBe(false);
    }
    // All five are the same picture: the UTF-16 one decoded by its byte order mark
    // and drawn like its UTF-8 twins, the prefixed rectangle drawn too.
    expect(result.warnings).toEqual([]);
    expect(pictures).toHaveLength(paths.length);
    expect(result.files).toHaveLength(1);
  });

  it("should refuse a file that is not what its type says, cut short, or a bomb, and name the event", async () => {
    const paths = ["/page-as.png", "/noise.png", "/cut-short.png", "/bomb.png", "/page.html"];
    const result = await localize(paths, { limits: { timeoutMs: 5_000 } });
    expect(result.files).toEqual([]);
    // Never the portal's URL: the event has no image.
    expect(result.snapshot.events.map((e) => e.image)).toEqual(paths.map(() => null));
    const [page, noise, cut, bomb, html] = result.warnings;
    expect(page).toMatch(
      /^calendar "community", event "e\d+": image http:\/\/127\.0\.0\.1:\d+\/page-as\.png not published: declared image\/png, but the file is not an image/,
    );
    expect(noise).toMatch(
      /noise\.png not published: declared image\/png, but the file is not an image/,
    );
    expect(cut).toMatch(/cut-short\.png not published: a cut-short PNG file/);
    expect(bomb).toMatch(
      /bomb\.png not published: 30000 x 30000 pixels, over the 40 million allowed/,
    );
    expect(html).toMatch(/page\.html not published: unsupported content type "text\/html"/);
  });

  it("should stop reading at the limit, refuse an announced size over it, and hold one deadline per image", async () => {
    const result = await localize(["/endless.png", "/announced-large.png", "/trickle.png"], {
      limits: { timeoutMs: 1_500 },
    });
    expect(result.files).toEqual([]);
    const [endlessWarning, announced, trickled] = result.warnings;
    expect(endlessWarning).toMatch(/endless\.png not published: larger than 512 KB/);
    // The server got to send only what the sockets between hold, far from its 64 MB.
    expect(seen.bytesSent.get("/endless.png")).toBeLessThan(16 * 1024 * 1024);
    expect(announced).toMatch(/announced-large\.png not published: larger than 512 KB/);
    // A byte every 25 ms never lets an idle timeout fire; the 1.5 s deadline does.
    expect(trickled).toMatch(/trickle\.png not published: not downloaded within 1\.5 s/);
    expect(seen.bytesSent.get("/trickle.png")).toBeLessThan(400);
  });

  it("should refuse an SVG whose drawing outlasts its deadline, and go on with the next", async () => {
    const result = await localize(["/slow-drawing.svg", "/banner.svg"], {
      limits: { drawMs: 2_000 },
      cacheDir: tempDir("ecp-media-"),
    });
    expect(result.warnings).toEqual([
      expect.stringMatching(/slow-drawing\.svg not published: an SVG not drawn within 2 s$/),
    ]);
    expect(result.snapshot.events[1]?.image?.url).toMatch(/\.png$/);
  });

  it("should give up on what is left when the build's time for images runs out", async () => {
    const result = await localize(["/trickle.png", "/trickle.png?2", "/trickle.png?3"], {
      limits: { totalMs: 300, timeoutMs: 10_000 },
    });
    expect(result.warnings).toHaveLength(3);
    for (const warning of result.warnings) {
      expect(warning).toMatch(/not published: the build's time for images ran out$/);
    }
  });

  it("should download a bounded number of images at once", async () => {
    seen.mostInFlight = 0;
    const paths = Array.from({ length: 12 }, (_, i) => `/slow.png?${i}`);
    const result = await localize(paths, { limits: { concurrency: 3 } });
    expect(result.warnings).toEqual([]);
    expect(seen.mostInFlight).toBeGreaterThan(1);
    expect(seen.mostInFlight).toBeLessThanOrEqual(3);
  });

  it("should refuse private addresses, whatever names them, and trust the portal's origin and the allowed hosts", async () => {
    // The same loopback server: trusted as the portal's origin, refused as another host.
    const trusted = await localize(["/photo.png"]);
    expect(trusted.warnings).toEqual([]);

    const literal = await localize(["/photo.png"], { portalUrl: "https://portal.example.org" });
    expect(literal.warnings[0]).toMatch(/not published: 127\.0\.0\.1, a loopback address/);

    // A name that resolves to loopback (answered by the test's resolver), and one
    // with a public address beside a private one: refused on the addresses dialled.
    const names: Record<string, string[]> = {
      "images.example.test": ["127.0.0.1"],
      "mixed.example.test": ["93.184.215.14", "10.0.0.7"],
      "mapped.example.test": ["::ffff:127.0.0.1"],
    };
    const resolve: LookupFunction = (hostname, _options, callback) => {
      const found = names[hostname];
      if (!found) return callback(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }), []);
      callback(
        null,
        found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
      );
    };
    const named = await localize(["/photo.png"], {
      base: `http://images.example.test:${port}`,
      resolve,
    });
    expect(named.warnings[0]).toMatch(
      /not published: images\.example\.test resolves to 127\.0\.0\.1, a loopback address/,
    );
    const mixed = await localize(["/photo.png"], {
      base: `http://mixed.example.test:${port}`,
      resolve,
    });
    expect(mixed.warnings[0]).toMatch(
      /mixed\.example\.test resolves to 10\.0\.0\.7, a private address/,
    );
    const mapped = await localize(["/photo.png"], {
      base: `http://mapped.example.test:${port}`,
      resolve,
    });
    expect(mapped.warnings[0]).toMatch(/resolves to ::ffff:127\.0\.0\.1, a loopback address/);

    // The system's resolver: localhost is loopback.
    const local = await localize(["/photo.png"], { base: `http://localhost:${port}` });
    expect(local.warnings[0]).toMatch(/localhost resolves to .*, a loopback address/);

    // Unless the site's owner allows the host.
    const allowed = await localize(["/photo.png"], {
      base: `http://localhost:${port}`,
      allowHosts: ["localhost"],
    });
    expect(allowed.warnings).toEqual([]);
    expect(allowed.files).toHaveLength(1);
  });

  it("should check every redirect's host again, and follow a bounded number", async () => {
    const result = await localize(["/to-localhost.png", "/loop.png"]);
    expect(result.files).toEqual([]);
    expect(result.warnings[0]).toMatch(/to-localhost\.png not published: localhost resolves to/);
    expect(result.warnings[1]).toMatch(/loop\.png not published: more than 5 redirects/);
    expect(seen.requests.get("/loop.png")).toBe(6);
  });

  it("should ask again with the copy's validators: a 304 keeps it, a replaced image is fetched again", async () => {
    const cacheDir = tempDir("ecp-media-");
    replaced = { etag: '"v1"', fill: "#c92a2a" };
    const first = await localize(["/replaced.png"], { cacheDir });
    const firstUrl = first.snapshot.events[0]?.image?.url;
    expect(firstUrl).toMatch(/\.png$/);

    const unchanged = await localize(["/replaced.png"], { cacheDir });
    expect(seen.notModified).toBe(1);
    expect(unchanged.snapshot.events[0]?.image?.url).toBe(firstUrl);
    expect(unchanged.files).toHaveLength(1);

    replaced = { etag: '"v2"', fill: "#2b8a3e" };
    const changed = await localize(["/replaced.png"], { cacheDir });
    expect(seen.notModified).toBe(1);
    const url = changed.snapshot.events[0]?.image?.url;
    expect(url).not.toBe(firstUrl);
    const [picture] = publishedPictures(changed);
    expect(decodePng(picture?.bytes as Buffer).hexAt(10, 10)).toBe("#2b8a3e");
  });

  it("should keep the copy an earlier build published of an image its host cannot give now, and drop one that is gone", async () => {
    const cacheDir = tempDir("ecp-media-");
    flaky = 200;
    const first = await localize(["/flaky.png"], { cacheDir });
    const published = first.snapshot.events[0]?.image?.url;
    expect(published).toMatch(/\.png$/);

    flaky = 503;
    const down = await localize(["/flaky.png"], { cacheDir });
    expect(down.snapshot.events[0]?.image?.url).toBe(published);
    expect(down.files).toHaveLength(1);
    expect(down.warnings).toEqual([
      expect.stringMatching(/flaky\.png kept as an earlier build published it: HTTP 503$/),
    ]);

    flaky = 404;
    const gone = await localize(["/flaky.png"], { cacheDir });
    expect(gone.snapshot.events[0]?.image).toBeNull();
    expect(gone.files).toEqual([]);
    expect(gone.warnings).toEqual([expect.stringMatching(/flaky\.png not published: HTTP 404$/)]);
  });
});
