import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Node } from "@takumi-rs/core";
import { Renderer } from "@takumi-rs/core";
import { type CardContent, CardWriter } from "../src/cards/card-content.ts";
import { cardFonts } from "../src/cards/card-fonts.ts";
import {
  type CardSize,
  cardNode,
  OG_SIZE,
  STRUCTURED_DATA_SIZES,
} from "../src/cards/card-layout.ts";
import { defineCommand, readCommandLine } from "../src/cli/command-line.ts";
import type { Calendar } from "../src/model/types.ts";
import { calendarEvent } from "../test/helpers/events.ts";

/**
 * The share cards' renderers on the same card (docs/share-cards.md): Takumi
 * (`@takumi-rs/core`, what the build uses) against Satori with resvg
 * (`satori` + `@resvg/resvg-js`, which the project does not install: add
 * them for the run with `npm install --no-save satori @resvg/resvg-js`).
 * Each library runs in a process of its own, so its peak memory is its own.
 */
const CARDS_BENCH = defineCommand({
  run: "node --import tsx bench/cards.ts",
  summary:
    "The share cards' renderers on the same card: Takumi, which the build uses, against Satori with resvg (npm install --no-save satori @resvg/resvg-js first). Prints cards per second one at a time and several at once, CPU time and bytes per card, each process's peak RSS, and where a Takumi card's CPU goes (layout, the card without its texts, the texts' glyphs).",
  options: {
    count: {
      type: "string",
      value: "<n>",
      default: "300",
      meaning: "cards per library, 10 to 5000",
    },
    library: {
      type: "string",
      value: "<name>",
      choices: ["takumi", "satori"],
      meaning: "measure this library alone, in this process, and print its figures as JSON",
    },
  },
  settings: [],
});

const { values } = readCommandLine(CARDS_BENCH);
const count = Math.max(10, Math.min(5_000, Number(values.count) || 300));

interface Figures {
  readonly library: string;
  readonly cards: number;
  /** One card at a time. */
  readonly serialPerSecond: number;
  /** As many at once as the machine has cores (Takumi renders off the main thread). */
  readonly concurrentPerSecond: number | null;
  readonly cpuMsPerCard: number;
  readonly bytesPerCard: number;
  readonly peakRssMB: number;
  /** Takumi only: an event's four cards (SHARE_CARDS=all) at once. */
  readonly eventSetPerSecond?: number;
  /**
   * Takumi only, CPU ms per card of its parts: the layout with its texts
   * shaped (`measure`, nothing drawn), and the card without its texts (the
   * paper and the band, drawn and encoded). The rest of `cpuMsPerCard` is
   * drawing the texts' glyphs. `emptyMs`: a white PNG of the card's size with
   * nothing on it, what any card of that size costs the renderer.
   */
  readonly parts?: {
    readonly layoutMs: number;
    readonly blankMs: number;
    readonly emptyMs: number;
  };
}

if (values.library) {
  const figures =
    values.library === "takumi" ? await benchTakumi() : await benchSatori(values.library);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} else {
  console.log(
    `Share cards: ${count} cards of ${OG_SIZE.width} x ${OG_SIZE.height} per library, Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}\n`,
  );
  const rows: Figures[] = [];
  for (const library of ["takumi", "satori"]) {
    const result = await child(library);
    if ("skipped" in result) console.log(`  ${library}: ${result.skipped}`);
    else rows.push(result);
  }
  table(
    [
      "library",
      "cards/s (1 at a time)",
      `cards/s (${availableParallelism()} at once)`,
      "CPU ms/card",
      "bytes/card",
      "peak RSS MB",
    ],
    rows.map((row) => [
      row.library,
      row.serialPerSecond.toFixed(0),
      row.concurrentPerSecond === null ? "-" : row.concurrentPerSecond.toFixed(0),
      row.cpuMsPerCard.toFixed(1),
      Math.round(row.bytesPerCard).toLocaleString("en-US"),
      row.peakRssMB.toLocaleString("en-US"),
    ]),
  );
  const takumi = rows.find((row) => row.library === "takumi");
  if (takumi?.eventSetPerSecond) {
    console.log(
      `\n  takumi, SHARE_CARDS=all: ${takumi.eventSetPerSecond.toFixed(0)} events/s (an event's four cards: ${[OG_SIZE, ...STRUCTURED_DATA_SIZES].map((s) => `${s.width}x${s.height}`).join(", ")})`,
    );
  }
  if (takumi?.parts) {
    const { layoutMs, blankMs, emptyMs } = takumi.parts;
    console.log(
      `  takumi, a card's CPU ms: ${takumi.cpuMsPerCard.toFixed(1)}, of which the layout with its texts shaped ${layoutMs.toFixed(1)}, the card without its texts drawn and encoded ${blankMs.toFixed(1)}, the texts' glyphs drawn the rest (${Math.max(0, takumi.cpuMsPerCard - layoutMs - blankMs).toFixed(1)})`,
    );
    console.log(
      `  takumi, a white ${OG_SIZE.width}x${OG_SIZE.height} PNG with nothing on it: ${emptyMs.toFixed(1)} CPU ms, what any card of that size costs`,
    );
  }
}

/** A representative event card: a long title, a time with its zone, a place. */
function sampleContent(index: number): CardContent {
  const writer = new CardWriter({
    lang: "en-GB",
    title: "Stichting Buurtleven Amsterdam",
    description: "Upcoming events",
    address: "events.example.org",
  });
  const calendar: Calendar = {
    id: "music",
    name: "Music & Concerts",
    description: "",
    timeZone: "Europe/Amsterdam",
    color: "#862e9c",
    updatedAt: null,
  };
  const event = calendarEvent({
    id: `e${index}`,
    calendarId: "music",
    title: `Jazz in the park with Åsa Éloïse and the Summer Band, night ${index} of the festival`,
    start: "2026-03-29T10:00:00+02:00",
    end: "2026-03-29T13:00:00+02:00",
    location: { name: "Vondelpark Openluchttheater", address: null, geo: null },
  });
  return writer.event(event, calendar, "#862e9c", null);
}

async function benchTakumi(): Promise<Figures> {
  const renderer = new Renderer();
  for (const { file: _, ...font } of cardFonts().fonts) await renderer.registerFont(font);
  const render = (index: number, size: CardSize = OG_SIZE) =>
    renderer.render(cardNode(sampleContent(index), size, null), {
      width: size.width,
      height: size.height,
      format: "png",
    });
  const serial = await drawInTurn(render, 5);
  let started = performance.now();
  const width = availableParallelism();
  for (let i = 0; i < count; i += width) {
    await Promise.all(
      Array.from({ length: Math.min(width, count - i) }, (_, k) => render(count + i + k)),
    );
  }
  const concurrentMs = performance.now() - started;
  const events = Math.max(10, Math.round(count / 4));
  started = performance.now();
  for (let i = 0; i < events; i += width) {
    await Promise.all(
      Array.from({ length: Math.min(width, events - i) }, async (_, k) => {
        for (const size of [OG_SIZE, ...STRUCTURED_DATA_SIZES]) await render(i + k, size);
      }),
    );
  }
  const setMs = performance.now() - started;
  const { width: w, height: h } = OG_SIZE;
  const layoutMs = await cpuMsEach((index) =>
    renderer.measure(cardNode(sampleContent(index), OG_SIZE, null), { width: w, height: h }),
  );
  const blankMs = await cpuMsEach((index) =>
    renderer.render(withoutTexts(cardNode(sampleContent(index), OG_SIZE, null)), {
      width: w,
      height: h,
      format: "png",
    }),
  );
  const empty: Node = {
    type: "container",
    style: { width: w, height: h, backgroundColor: "#fff" },
  };
  const emptyMs = await cpuMsEach(() =>
    renderer.render(empty, { width: w, height: h, format: "png" }),
  );
  return {
    library: "takumi",
    ...serial,
    concurrentPerSecond: (count / concurrentMs) * 1000,
    peakRssMB: peakRssMB(),
    eventSetPerSecond: (events / setMs) * 1000,
    parts: { layoutMs, blankMs, emptyMs },
  };
}

/** CPU ms of `work`, `count` times one after the other. */
async function cpuMsEach(work: (index: number) => Promise<unknown>): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) await work(i);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / count;
}

/** The same boxes with every text left out. */
function withoutTexts(node: Node): Node {
  if (node.type !== "container") return node;
  return {
    ...node,
    children: (node.children ?? []).filter((child) => child.type !== "text").map(withoutTexts),
  };
}

/** Satori lays the card out as SVG in JavaScript, resvg draws it into a PNG. */
async function benchSatori(library: string): Promise<Figures> {
  if (library !== "satori") throw new Error(`--library: takumi or satori, not "${library}"`);
  // Not dependencies of the project: imported by name at run time.
  const satoriName = "satori";
  const resvgName = "@resvg/resvg-js";
  const satori = (await import(satoriName)).default as (
    element: unknown,
    options: unknown,
  ) => Promise<string>;
  const { Resvg } = (await import(resvgName)) as {
    Resvg: new (svg: string, options: unknown) => { render(): { asPng(): Buffer } };
  };
  // Satori reads TTF, OTF and WOFF, not WOFF2: the same faces from the same package.
  const fonts = cardFonts().fonts.map((font) => ({
    name: font.name,
    weight: font.weight,
    style: font.style,
    data: readFileSync(font.file.replace(/\.woff2$/, ".woff")),
  }));
  const render = async (index: number) => {
    const svg = await satori(toSatori(cardNode(sampleContent(index), OG_SIZE, null)), {
      width: OG_SIZE.width,
      height: OG_SIZE.height,
      fonts,
    });
    return new Resvg(svg, { fitTo: { mode: "original" } }).render().asPng();
  };
  return {
    library: "satori + resvg",
    ...(await drawInTurn(render, 3)),
    // Satori runs on the main thread and resvg's render() too: one at a time.
    concurrentPerSecond: null,
    peakRssMB: peakRssMB(),
  };
}

/**
 * `count` cards drawn one after the other, after `warmUps` drawn to warm up:
 * the figures both libraries are compared by.
 */
async function drawInTurn(
  render: (index: number) => Promise<{ byteLength: number }>,
  warmUps: number,
): Promise<Pick<Figures, "cards" | "serialPerSecond" | "cpuMsPerCard" | "bytesPerCard">> {
  for (let i = 0; i < warmUps; i++) await render(i);
  const cpu = process.cpuUsage();
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) bytes += (await render(i)).byteLength;
  const serialMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    cards: count,
    serialPerSecond: (count / serialMs) * 1000,
    cpuMsPerCard: (used.user + used.system) / 1000 / count,
    bytesPerCard: bytes / count,
  };
}

/** The process's peak memory so far: read once a library's figures are complete. */
function peakRssMB(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Takumi's node tree as the React-like elements Satori takes: the same boxes, styles and text. */
function toSatori(node: Node): unknown {
  if (node.type === "text") {
    return {
      type: "div",
      props: { style: { display: "block", ...node.style }, children: node.text },
    };
  }
  if (node.type === "image") {
    return { type: "img", props: { src: node.src, style: node.style } };
  }
  return {
    type: "div",
    props: {
      style: { display: "flex", ...node.style },
      children: (node.children ?? []).map(toSatori),
    },
  };
}

async function child(library: string): Promise<Figures | { skipped: string }> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(
      process.execPath,
      ["--import", "tsx", import.meta.filename, "--library", library, "--count", String(count)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    process_.stdout.on("data", (chunk) => {
      out += chunk;
    });
    process_.stderr.on("data", (chunk) => {
      err += chunk;
    });
    const timer = setTimeout(() => process_.kill(), 600_000);
    process_.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out.trim().split("\n").at(-1) as string) as Figures);
      else if (/Cannot find (package|module) '(satori|@resvg\/resvg-js)'/.test(err)) {
        resolve({ skipped: "not installed (npm install --no-save satori @resvg/resvg-js)" });
      } else reject(new Error(`${library} failed:\n${err.slice(-2000)}`));
    });
  });
}

function table(header: readonly string[], rows: readonly (readonly string[])[]) {
  const cells = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length)));
  for (const row of cells) {
    console.log(
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}`,
    );
  }
}
