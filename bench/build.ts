import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { startPortal } from "../src/portal/index.ts";

/**
 * Full site builds, timed from the outside: `node --import tsx src/cli/build.ts`
 * in a child process, exactly as `npm run build` runs it, against a reference
 * portal started here (so the fetch phase goes over loopback HTTP). Each
 * dataset is built with an empty API cache (cold) and then again with the
 * cache the first build left (warm: lists answered 304, details reused),
 * once per output medium (tmpfs and disk).
 */

export interface BuildBenchOptions {
  /** Shown in the table, e.g. "demo" or "4x500". */
  readonly label: string;
  /** Omit for the demo dataset the build uses when no API is configured. */
  readonly synthetic?: { readonly calendars: number; readonly eventsPerCalendar: number };
  /** Where outputs and caches go; one cold and one warm build per root. */
  readonly roots: readonly OutputRoot[];
  /** Upper bound for one build; a build over it is killed and reported as failed. */
  readonly timeoutMs?: number;
  /** Builds per cache state per root; the fastest counts (others' load varies on a shared machine). */
  readonly repeat?: number;
}

export interface OutputRoot {
  /** "tmpfs" or "disk". */
  readonly medium: string;
  readonly dir: string;
}

export interface Timing {
  readonly name: string;
  readonly ms: number;
  readonly count: number;
}

export interface BuildRun {
  readonly label: string;
  readonly medium: string;
  readonly cache: "cold" | "warm";
  readonly ok: boolean;
  readonly events: number;
  readonly pages: number;
  readonly files: number;
  /** Spawn to exit: includes starting Node and compiling TypeScript. */
  readonly wallMs: number;
  /** What the build reports as its own time (after its modules are loaded). */
  readonly buildMs: number;
  /** Loading the snapshot from the portal (the loader's summary line). */
  readonly fetchMs: number;
  readonly requests: number;
  readonly notModified: number;
  /** Eleventy's write(): data cascade, pagination, render and write. */
  readonly eleventyMs: number;
  /** Eleventy benchmark aggregates: templates rendered, files written. */
  readonly renderMs: number;
  readonly writeMs: number;
  readonly templates: readonly Timing[];
  readonly filters: readonly Timing[];
  /** The last lines of the log when the build failed. */
  readonly error?: string;
}

const NOW = "2026-03-20T12:00:00Z";
const SITE_URL = "https://events.example.org";
const ROOT = path.resolve(import.meta.dirname, "..");

export async function benchBuild(options: BuildBenchOptions): Promise<BuildRun[]> {
  const portal = await startPortal({
    host: "127.0.0.1",
    port: 0,
    now: NOW,
    seed: 1,
    ...(options.synthetic ? { synthetic: options.synthetic } : {}),
  });
  const runs: BuildRun[] = [];
  try {
    for (const root of options.roots) {
      const work = await mkdtemp(path.join(root.dir, "ecp-bench-build-"));
      try {
        for (const cache of ["cold", "warm"] as const) {
          let best: BuildRun | undefined;
          for (let i = 0; i < Math.max(1, options.repeat ?? 1); i++) {
            // A cold build starts from an empty API cache; a warm one reuses it.
            if (cache === "cold")
              await rm(path.join(work, "cache"), { recursive: true, force: true });
            const output = path.join(work, `site-${cache}-${i}`);
            const run = await buildOnce({
              label: options.label,
              medium: root.medium,
              cache,
              output,
              env: {
                EVENT_API_URL: portal.url,
                EVENT_API_TOKEN: portal.token,
                EVENT_API_CACHE_DIR: path.join(work, "cache"),
              },
              timeoutMs: options.timeoutMs ?? 240_000,
            });
            await rm(output, { recursive: true, force: true });
            if (!best || (run.ok && (!best.ok || run.wallMs < best.wallMs))) best = run;
          }
          if (best) runs.push(best);
        }
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }
  } finally {
    await portal.close();
  }
  return runs;
}

interface BuildOnceOptions {
  readonly label: string;
  readonly medium: string;
  readonly cache: "cold" | "warm";
  readonly output: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
}

async function buildOnce(options: BuildOnceOptions): Promise<BuildRun> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(EVENT_API_|SITE_|FEED_|ALLOW_SHRINK|SHRINK_GUARD|PREVIOUS_MANIFEST_URL|DEBUG$)/.test(name)
    )
      delete env[name];
  }
  const started = performance.now();
  const { code, log } = await run(
    process.execPath,
    ["--import", "tsx", "src/cli/build.ts", "--output", options.output],
    {
      ...env,
      SITE_NOW: NOW,
      SITE_URL,
      PREVIOUS_MANIFEST_URL: "none",
      // Eleventy keeps these timers anyway; DEBUG only prints them.
      DEBUG: "Eleventy:Benchmark*",
      ...options.env,
    },
    options.timeoutMs,
  );
  const wallMs = performance.now() - started;
  return { ...parseBuildLog(log), ...pick(options), ok: code === 0, wallMs, ...failure(code, log) };
}

function pick(options: BuildOnceOptions) {
  return { label: options.label, medium: options.medium, cache: options.cache };
}

function failure(code: number | null, log: string): { error?: string } {
  if (code === 0) return {};
  return { error: log.trim().split("\n").slice(-5).join("\n") };
}

function run(
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<{ code: number | null; log: string }> {
  return new Promise((resolve) => {
    // Asynchronous on purpose: the portal the build talks to runs in this process.
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, log: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

type LogFigures = Omit<BuildRun, "label" | "medium" | "cache" | "ok" | "wallMs" | "error">;

/** Reads the build report, the loader's summary and Eleventy's benchmark lines. */
export function parseBuildLog(log: string): LogFigures {
  const number = (re: RegExp) => Number(re.exec(log)?.[1] ?? Number.NaN);
  const portal =
    /Portal: \d+ calendars, (\d+) events, (\d+) requests \(\d+ retries, (\d+) not modified.*, ([\d.]+) (ms|s|min)\n/.exec(
      log,
    );
  const unit = { ms: 1, s: 1000, min: 60_000 } as const;
  const aggregates = new Map<string, Timing>();
  const templates: Timing[] = [];
  const filters: Timing[] = [];
  const line = /Benchmark\s+(\d+)ms\s+\d+%\s+(\d+)× \((Aggregate|Configuration)\) (.+)$/gm;
  for (const match of log.matchAll(line)) {
    const timing = { ms: Number(match[1]), count: Number(match[2]), name: "" };
    const what = match[4] ?? "";
    if (match[3] === "Configuration") {
      const filter = /^"(.+)" Nunjucks Filter$/.exec(what);
      if (filter) filters.push({ ...timing, name: filter[1] ?? "" });
      continue;
    }
    const content = /^> Render Content > \.\/templates\/(\S+)/.exec(what);
    if (content) templates.push({ ...timing, name: content[1] ?? "" });
    else aggregates.set(what, { ...timing, name: what });
  }
  const aggregate = (name: string) => aggregates.get(name)?.ms ?? 0;
  const byTime = (a: Timing, b: Timing) => b.ms - a.ms;
  return {
    events: number(/^\s+events\s+(\d+)/m),
    pages: number(/^\s+pages\s+(\d+)/m),
    files: number(/^\s+files\s+(\d+)/m),
    buildMs: number(/^\s+time\s+([\d.]+) s/m) * 1000,
    fetchMs: portal ? Number(portal[4]) * unit[portal[5] as keyof typeof unit] : Number.NaN,
    requests: portal ? Number(portal[2]) : Number.NaN,
    notModified: portal ? Number(portal[3]) : Number.NaN,
    eleventyMs: number(/Wrote \d+ files in ([\d.]+) seconds/) * 1000,
    renderMs: aggregate("Render"),
    writeMs: aggregate("Template Write") + aggregate("Template make parent directory"),
    templates: templates.sort(byTime),
    filters: filters.sort(byTime),
  };
}
