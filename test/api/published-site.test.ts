import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { PublishedSite } from "../../src/api/published-site.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";

/**
 * The published site as the change check reads it every minute: its build
 * state compressed, as hosts send JSON to a client that asks for it, and
 * within its size limit once decompressed.
 */

const STATE = {
  version: 1,
  pages: Array.from({ length: 500 }, (_, index) => ({
    path: `event-calendar/sport/events?limit=100&offset=${index * 100}`,
    etag: `"etag-${index}"`,
    items: 100,
  })),
};
const TEXT = JSON.stringify(STATE);

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** A host that answers every path with `body`, encoded as the request allows. */
async function host(body: Buffer | string, encoding?: "gzip" | "br") {
  const asked: (string | undefined)[] = [];
  const server = await serveOnLoopback((request: IncomingMessage, response: ServerResponse) => {
    asked.push(request.headers["accept-encoding"]);
    response.writeHead(200, {
      "content-type": "application/json",
      ...(encoding ? { "content-encoding": encoding } : {}),
    });
    response.end(body);
  });
  close = server.close;
  return { site: new PublishedSite(server.origin), asked };
}

describe("PublishedSite", () => {
  it.each([
    ["gzip", gzipSync(TEXT)],
    ["br", brotliCompressSync(TEXT)],
  ] as const)(
    "should ask for compression and read a %s body, counting the bytes that came",
    async (encoding, body) => {
      const { site, asked } = await host(body, encoding);

      expect(await site.readJson("/api/build-state.json")).toEqual(STATE);
      expect(asked).toEqual(["br, gzip"]);
      expect(site.read).toEqual({ files: 1, bytes: body.length });
      expect(body.length).toBeLessThan(TEXT.length / 5);
    },
  );

  it("should read a host that does not compress", async () => {
    const { site } = await host(TEXT);

    expect(await site.readJson("/api/build-state.json")).toEqual(STATE);
    expect(site.read).toEqual({ files: 1, bytes: Buffer.byteLength(TEXT) });
  });

  it("should stop a small body that inflates past the limit", async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, " "));
    const { site } = await host(bomb, "gzip");

    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(site.readText("/digest/latest.html", 1024 * 1024)).rejects.toThrow(
      /^The published site.s answer for http:\/\/127\.0\.0\.1:\d+\/digest\/latest\.html went on past 1MB and was stopped \(an endless or runaway response\)\.$/,
    );
  });
});
