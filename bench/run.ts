import { existsSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { parseArgs } from "node:util";
import { type BuildRun, benchBuild, type OutputRoot, type Timing } from "./build.ts";
import { benchPortal } from "./portal.ts";
import { benchSnapshot } from "./snapshot.ts";

/**
 * `npm run bench`: figures, no thresholds (docs/performance.md).
 *   --quick   smaller portal runs, the demo and 2,000-event builds on tmpfs only
 *   --large   adds a 10,000-event build (tmpfs, cold and warm)
 *   --repeat n  builds each cell n times (at most 5) and keeps the fastest, for a busy machine
 */

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    large: { type: "boolean", default: false },
    repeat: { type: "string", default: "1" },
  },
});
const quick = values.quick;
const repeat = Math.min(5, Math.max(1, Number.parseInt(values.repeat, 10) || 1));
const started = performance.now();

const tmpfs: OutputRoot | null = existsSync("/dev/shm")
  ? { medium: "tmpfs", dir: "/dev/shm" }
  : null;
const disk: OutputRoot = { medium: "disk", dir: tmpdir() };
const bothMedia = [...(tmpfs ? [tmpfs] : []), ...(quick ? [] : [disk])];
const fastest = tmpfs ?? disk;

console.log(
  `Event Calendar Publisher benchmark: Node ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}${quick ? " (quick)" : ""}\n`,
);

// 1. Portal throughput over loopback.
const portal = await benchPortal({
  calendars: 4,
  eventsPerCalendar: quick ? 2_500 : 25_000,
  maxRequests: quick ? 1_000 : 3_000,
  maxSeconds: quick ? 2 : 4,
});
section(`Reference portal, ${fmt(portal.events)} events (loaded in ${fmt(portal.loadMs)} ms)`);
table(
  ["requests", "count", "seconds", "per second", "p50 ms", "p95 ms"],
  (
    [
      ["list pages of 100", portal.listPages],
      ["event details", portal.details],
      ["304 revalidations", portal.conditional304],
    ] as const
  ).map(([name, t]) => [
    name,
    fmt(t.requests),
    t.seconds.toFixed(2),
    fmt(t.perSecond),
    t.p50Ms,
    t.p95Ms,
  ]),
);

// 2. Snapshot load through the real client: empty cache, then warm cache.
const snapshot = await benchSnapshot({ cacheRoot: fastest.dir });
section(
  `Snapshot load, ${snapshot.calendars} calendars, ${fmt(snapshot.events)} events, ${snapshot.latencyMs} ms server latency, ${snapshot.concurrency} in flight`,
);
table(
  ["cache", "ms", "requests", "304", "details reused", "events/s"],
  [
    ["cold", ...snapshotRow(snapshot.cold)],
    ["warm", ...snapshotRow(snapshot.warm)],
  ],
);
console.log(`  warm/cold time: ${ratio(snapshot.warm.ms, snapshot.cold.ms)}`);

// 3. Full builds, spawned as `npm run build` runs them.
const builds: BuildRun[] = [];
builds.push(...(await benchBuild({ label: "demo", roots: bothMedia, repeat })));
builds.push(
  ...(await benchBuild({
    label: "4x500",
    synthetic: { calendars: 4, eventsPerCalendar: 500 },
    roots: bothMedia,
    repeat,
  })),
);
if (values.large) {
  builds.push(
    ...(await benchBuild({
      label: "4x2500",
      synthetic: { calendars: 4, eventsPerCalendar: 2_500 },
      roots: [fastest],
      timeoutMs: 600_000,
      repeat,
    })),
  );
}

section("Site builds (child process: node --import tsx src/cli/build.ts)");
table(
  [
    "dataset",
    "medium",
    "cache",
    "events",
    "pages",
    "files",
    "wall s",
    "fetch s",
    "11ty s",
    "ms/file",
    "events/s",
  ],
  builds.map((b) =>
    b.ok
      ? [
          b.label,
          b.medium,
          b.cache,
          fmt(b.events),
          fmt(b.pages),
          fmt(b.files),
          seconds(b.wallMs),
          seconds(b.fetchMs),
          seconds(b.eleventyMs),
          (b.eleventyMs / b.files).toFixed(2),
          fmt(Math.round(b.events / (b.wallMs / 1000))),
        ]
      : [b.label, b.medium, b.cache, "failed", b.error ?? ""],
  ),
);

section("Ratios");
const ratioRows: (string | number)[][] = [];
for (const label of new Set(builds.map((b) => b.label))) {
  const find = (medium: string, cache: string) =>
    builds.find((b) => b.ok && b.label === label && b.medium === medium && b.cache === cache);
  for (const cache of ["cold", "warm"]) {
    const onDisk = find("disk", cache);
    const onTmpfs = find("tmpfs", cache);
    if (onDisk && onTmpfs)
      ratioRows.push([label, `disk/tmpfs (${cache})`, ratio(onDisk.wallMs, onTmpfs.wallMs)]);
  }
  for (const medium of ["tmpfs", "disk"]) {
    const cold = find(medium, "cold");
    const warm = find(medium, "warm");
    if (cold && warm) {
      ratioRows.push([label, `warm/cold build (${medium})`, ratio(warm.wallMs, cold.wallMs)]);
      ratioRows.push([label, `warm/cold fetch (${medium})`, ratio(warm.fetchMs, cold.fetchMs)]);
    }
  }
}
table(["dataset", "ratio", "value"], ratioRows);

section("Where build time goes (warm cache, fastest medium)");
const phaseRows: (string | number)[][] = [];
for (const b of builds.filter((x) => x.ok && x.cache === "warm" && x.medium === fastest.medium)) {
  const other = b.eleventyMs - b.renderMs - b.writeMs;
  const rest = b.buildMs - b.fetchMs - b.eleventyMs;
  phaseRows.push([
    b.label,
    seconds(b.wallMs - b.buildMs),
    seconds(b.fetchMs),
    seconds(b.renderMs),
    seconds(b.writeMs),
    seconds(other),
    seconds(rest),
  ]);
}
table(
  ["dataset", "node+tsx start", "fetch", "render", "write", "11ty other", "views+publish"],
  phaseRows,
);

const largest = builds.filter((b) => b.ok && b.cache === "warm").at(-1);
if (largest) {
  section(`Slowest templates and filters (${largest.label}, ${largest.medium}, warm)`);
  table(["template (render)", "count", "ms", "ms each"], timingRows(largest.templates));
  table(["nunjucks filter", "calls", "ms", "ms each"], timingRows(largest.filters));
}

console.log(`\nBenchmark finished in ${seconds(performance.now() - started)} s.`);

function snapshotRow(f: {
  ms: number;
  requests: number;
  notModified: number;
  detailsReused: number;
  eventsPerSecond: number;
}) {
  return [
    fmt(f.ms),
    fmt(f.requests),
    fmt(f.notModified),
    fmt(f.detailsReused),
    fmt(f.eventsPerSecond),
  ];
}

function timingRows(timings: readonly Timing[]) {
  return timings
    .slice(0, 8)
    .map((t) => [t.name, fmt(t.count), fmt(t.ms), (t.ms / Math.max(1, t.count)).toFixed(3)]);
}

function section(title: string): void {
  console.log(`\n${title}`);
}

/** A plain text table: first column left-aligned, the others right-aligned. */
function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  const all = [head, ...rows].map((row) => row.map(String));
  const widths = head.map((_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)));
  const line = (row: readonly string[]) =>
    `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}`;
  console.log(line(all[0] ?? []));
  console.log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of all.slice(1)) console.log(line(row));
}

function fmt(n: number): string {
  return Number.isFinite(n) ? n.toLocaleString("en-US") : "-";
}

function seconds(ms: number): string {
  return Number.isFinite(ms) ? (ms / 1000).toFixed(2) : "-";
}

function ratio(a: number, b: number): string {
  return Number.isFinite(a / b) && b > 0 ? `${(a / b).toFixed(2)}x` : "-";
}
