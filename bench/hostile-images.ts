import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { defineCommand, readCommandLine } from "../src/cli/command-line.ts";
import { createDemoDataset, startPortal } from "../src/portal/index.ts";
import { npmScript } from "../test/helpers/npm-script.ts";

/**
 * A build whose every event image is hostile (docs/site.md, "Images"): the
 * demo's events, each with an image on a server of this script's on
 * loopback that answers one of the ways below, allowed as an image host
 * (EVENT_IMAGE_ALLOW_HOSTS=127.0.0.1) so that every answer is really read
 * rather than refused for its address. Prints the build's time, its images
 * phase and its peak memory (the build's --metrics), and how many images
 * were refused. Loopback only; every answer stops by itself.
 */
const HOSTILE_IMAGES_BENCH = defineCommand({
  run: "node --import tsx bench/hostile-images.ts",
  summary:
    "A demo build whose every event image is hostile (endless, trickling, lying, bombs, SVGs that take long to draw), served on loopback: prints the build's seconds, the images phase, peak RSS and the images refused.",
  options: {},
  settings: [],
});
readCommandLine(HOSTILE_IMAGES_BENCH);

const KINDS = [
  "endless",
  "trickle",
  "announced",
  "bomb",
  "html",
  "noise",
  "slow-svg",
  "script-svg",
  "loop",
] as const;

/** The signature and header (IHDR) of a 30000 x 30000 1-bit PNG: all that is read of it. */
function bombPng(): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(30_000, 0);
  data.writeUInt32BE(30_000, 4);
  data[8] = 1;
  const chunk = Buffer.concat([Buffer.from("IHDR", "latin1"), data]);
  const frame = Buffer.alloc(4);
  frame.writeUInt32BE(crc32(chunk));
  const length = Buffer.from([0, 0, 0, 13]);
  return Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), length, chunk, frame]);
}

const server = createServer((request, response: ServerResponse) => {
  const kind = (request.url ?? "").split(/[/?]/)[1] ?? "";
  const stop = () => response.destroy();
  const timer = setTimeout(stop, 60_000); // nothing here lasts longer than a minute
  response.on("close", () => clearTimeout(timer));
  switch (kind) {
    case "endless": {
      response.writeHead(200, { "Content-Type": "image/png" });
      const piece = Buffer.alloc(64 * 1024, 0x89);
      let sent = 0;
      const pump = () => {
        while (!response.destroyed && sent < 1024 ** 3) {
          sent += piece.length;
          if (!response.write(piece)) return void response.once("drain", pump);
        }
        response.end();
      };
      return pump();
    }
    case "trickle": {
      response.writeHead(200, { "Content-Type": "image/png" });
      const every = setInterval(() => response.write(Buffer.from([0x89])), 1_000);
      return void response.on("close", () => clearInterval(every));
    }
    case "announced":
      response.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(2 ** 30) });
      return void response.flushHeaders();
    case "bomb":
      return void response.writeHead(200, { "Content-Type": "image/png" }).end(bombPng());
    case "html":
      return void response
        .writeHead(200, { "Content-Type": "image/png" })
        .end("<!doctype html><script>alert(document.domain)</script>");
    case "noise":
      return void response
        .writeHead(200, { "Content-Type": "image/png" })
        .end(Buffer.alloc(11, 0x89));
    case "slow-svg":
      return void response
        .writeHead(200, { "Content-Type": "image/svg+xml" })
        .end(
          `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><filter id="f"><feMorphology radius="300"/></filter><rect width="1200" height="630" filter="url(#f)"/><text>${request.url}</text></svg>`,
        );
    case "script-svg":
      return void response
        .writeHead(200, { "Content-Type": "image/svg+xml" })
        .end(
          Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><script>alert(1)</script><text y="50">${request.url}</text></svg>`,
              "utf16le",
            ),
          ]),
        );
    case "loop":
      return void response.writeHead(302, { Location: request.url ?? "/" }).end();
    default:
      return void response.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const images = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const NOW = "2026-03-20T12:00:00Z";
const dataset = createDemoDataset(NOW);
dataset.events.forEach((event, index) => {
  const kind = KINDS[index % KINDS.length];
  event.image = { url: `${images}/${kind}?${index}`, alt: "hostile", width: null, height: null };
});
const portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset });

const work = mkdtempSync(join(tmpdir(), "ecp-hostile-images-"));
try {
  const metricsFile = join(work, "metrics.json");
  const started = performance.now();
  // Asynchronously: the portal and the image server answer from this process meanwhile.
  const build = npmScript("build");
  const child = spawn(
    process.execPath,
    [...build.args, "--output", join(work, "_site"), "--metrics", metricsFile],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        ...build.env,
        ENV_FILE: "none",
        EVENT_API_URL: portal.url,
        EVENT_API_TOKEN: portal.token,
        EVENT_API_CACHE_DIR: join(work, ".cache"),
        EVENT_IMAGE_ALLOW_HOSTS: "127.0.0.1",
        SITE_URL: "http://localhost:8080",
        SITE_NOW: NOW,
      },
    },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const run = { status, stderr };
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`the build failed:\n${run.stderr}`);
  const metrics = JSON.parse(readFileSync(metricsFile, "utf8")) as {
    events: number;
    peakRssMB: number;
    phases: Record<string, number>;
    counters: Record<string, number>;
  };
  const refused = run.stderr.split("\n").filter((line) => / image .* not published: /.test(line));
  const reasons = new Map<string, number>();
  for (const line of refused) {
    const reason = (line.split("not published: ")[1] ?? "").replace(/\d+(\.\d+)? s$/, "N s");
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  console.log(
    JSON.stringify(
      {
        events: metrics.events,
        imagesRefused: refused.length,
        filesPublished: readdirSync(join(work, "_site", "media")).length,
        reasons: Object.fromEntries(reasons),
        buildSeconds: Math.round(seconds * 10) / 10,
        imagesPhaseSeconds: Math.round((metrics.phases.images ?? 0) / 100) / 10,
        peakRssMB: metrics.peakRssMB,
      },
      null,
      2,
    ),
  );
} finally {
  await portal.close();
  server.closeAllConnections();
  server.close();
  rmSync(work, { recursive: true, force: true });
}
