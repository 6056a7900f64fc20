// Builds against one synthetic portal, in turns: how docs/performance.md
// measures a change of the code ("in turns on one portal"). The portal runs
// in this process (the benchmark's dataset, seed 1, no latency unless
// given), and each step edits it or moves the clock before the builds.
// Each build is `npm run build`'s command with `--metrics`, run from each
// checkout given to `--code` (this one by default), each with its own
// output and cache folder, so the two see the same portal:
//
//   node --import tsx tools/edit-builds.ts --work /dev/shm/turns --steps cold,edit,edit,day
//   node --import tsx tools/edit-builds.ts --work /dev/shm/turns --code /tmp/before,. \
//     --steps cold,edit,edit,edit
//   node --import tsx tools/edit-builds.ts --work /dev/shm/turns --steps cold,edit \
//     --node-flags=--max-semi-space-size=64      (Node's flags added after the script's)
//   node --import tsx tools/edit-builds.ts --work /dev/shm/turns --steps cold,edit \
//     --setting PAGE_RECORD=verify                (a setting of every build, as many as given)
//   node --import tsx tools/edit-builds.ts --work /dev/shm/turns --code .,. --steps cold,edit \
//     --setting 1:PAGE_RECORD=on                  (of the second checkout's builds only: one
//                                                  code with and without a setting, in turns)
//
//   node --import tsx tools/edit-builds.ts --work /dev/shm/turns --steps edit,edit --port 18123
//                                                 (the portal at one address: a later run on the same
//                                                  folders keeps their caches, makes the edits of the
//                                                  runs before again, then edits events they did
//                                                  not, so its first edit is one edited event; at a new address every
//                                                  event's details are fetched again, as from a new
//                                                  portal, and its first build is no edited one.
//                                                  Its clock starts at the first run's again: a
//                                                  later run of "many" or "day" starts afresh, and
//                                                  its first build sees a "many" before undone)
//
// Steps: cold (the API cache emptied), warm (nothing changed), edit (one
// more event's title edited), many (every 20th event's title edited, as the
// benchmark's changed build), day (SITE_NOW a day later). Prints each
// build's seconds (spawn to exit), peak memory, files written and its
// largest phases, and where Linux tells it the CPU it took: its own process,
// the processes it started (cards, Pagefind) and the portal in this one.
// Steps run in order; a later step cannot go back a day.
import { spawn } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { type BuildMetrics, benchEnv, countBuildCpu } from "../bench/build.ts";
import { npmScript } from "../test/helpers/npm-script.ts";
import { PORTAL_NOW, parseSize, portalSettings, startSyntheticPortal } from "./synthetic-portal.ts";

/** --setting's form: [I:]NAME=VALUE. */
const SETTING = /^(?:(\d+):)?([A-Z][A-Z0-9_]*)=(.*)$/s;
const STEPS = new Set(["cold", "warm", "edit", "many", "day"]);
const DAY_MS = 86_400_000;
const BUILD_TIMEOUT_MS = 3_600_000;

const { values } = parseArgs({
  options: {
    work: { type: "string" },
    steps: { type: "string", default: "cold,edit" },
    size: { type: "string", default: "50x2000" },
    code: { type: "string", default: "." },
    latency: { type: "string", default: "0" },
    port: { type: "string", default: "0" },
    "node-flags": { type: "string", default: "" },
    setting: { type: "string", multiple: true, default: [] },
  },
});
const size = parseSize(values.size);
const steps = (values.steps ?? "").split(",");
if (
  !values.work ||
  !size ||
  !steps.every((step) => STEPS.has(step)) ||
  !(values.setting ?? []).every((setting) => SETTING.test(setting)) ||
  !/^\d+$/.test(values.port ?? "")
) {
  console.error(
    "usage: node --import tsx tools/edit-builds.ts --work DIR [--steps cold,warm,edit,many,day] [--size CxE] [--code DIR,DIR] [--latency MS] [--port N] [--node-flags=FLAGS] [--setting [I:]NAME=VALUE]",
  );
  process.exit(2);
}
const work = path.resolve(values.work);
const checkouts = (values.code ?? ".").split(",").map((dir) => path.resolve(dir));
const nodeFlags = (values["node-flags"] ?? "").split(" ").filter(Boolean);
// --setting [I:]NAME=VALUE, as many as given: a setting of every build (PAGE_RECORD=verify),
// or with I of the builds from the I-th checkout of --code only (from 0).
const settingsOf = (at: number): Record<string, string> =>
  Object.fromEntries(
    (values.setting ?? []).flatMap((setting) => {
      const [, only, name = "", value = ""] = SETTING.exec(setting) ?? [];
      return only === undefined || Number(only) === at ? [[name, value]] : [];
    }),
  );

// The runs before on these folders edited events of the portal, which starts afresh
// here: their edits are made again, in order and with the same titles, so that each
// event reads as the version the caches hold (the portal's clock is fixed, so an edit
// made again gets the revision and stamp it had then) and a run's first edit is one
// edited event, not that edit and the last run's undone. The next edit is of an
// event not edited before.
const editsFile = path.join(work, "edits.json");
const edited = await readFile(editsFile, "utf8").then(
  (text): number[] | null => {
    try {
      const kept: unknown = JSON.parse(text);
      return Array.isArray(kept) && kept.every(Number.isSafeInteger) ? kept : null;
    } catch {
      return null;
    }
  },
  (): number[] => [],
);
if (!edited) {
  // A count, as this tool kept before it made the edits again: which titles they had is not known.
  console.error(`${editsFile} names no edits this tool can make again: use another --work folder.`);
  process.exit(2);
}

const { portal, dataset } = await startSyntheticPortal(size, {
  port: Number(values.port),
  latencyMs: Number(values.latency),
});
const editEvent = (nth: number, step: number) => {
  const event = dataset.events[((dataset.events.length >> 1) + nth) % dataset.events.length];
  if (event) portal.updateEvent(event.calendarId, event.id, { title: `${event.title} [${step}]` });
};
for (const [nth, step] of edited.entries()) editEvent(nth, step);
let days = 0;
try {
  for (const [index, step] of steps.entries()) {
    if (step === "edit") {
      editEvent(edited.length, index);
      edited.push(index);
      await mkdir(work, { recursive: true });
      await writeFile(editsFile, JSON.stringify(edited));
    }
    if (step === "many") {
      for (const [at, event] of dataset.events.entries()) {
        if (at % 20 === 0)
          portal.updateEvent(event.calendarId, event.id, { title: `${event.title} (${index})` });
      }
    }
    if (step === "day") days++;
    for (const [at, checkout] of checkouts.entries()) {
      const folder = path.join(work, String(at));
      await mkdir(folder, { recursive: true });
      if (step === "cold") await rm(path.join(folder, "cache"), { recursive: true, force: true });
      const settings = {
        ...portalSettings(portal, path.join(folder, "cache")),
        SITE_NOW: new Date(Date.parse(PORTAL_NOW) + days * DAY_MS).toISOString(),
        ...settingsOf(at),
      };
      const metricsFile = path.join(folder, `${index}-${step}.json`);
      const started = performance.now();
      const cpuOf = countBuildCpu();
      const { code, tail } = await build(checkout, settings, [
        "--output",
        path.join(folder, "site"),
        "--metrics",
        metricsFile,
      ]);
      const seconds = (performance.now() - started) / 1000;
      const cpuAtExit = cpuOf.ended();
      if (code !== 0) {
        throw new Error(`The ${step} build from ${checkout} failed (exit ${code}):\n${tail}`);
      }
      const metrics = JSON.parse(await readFile(metricsFile, "utf8")) as BuildMetrics;
      const phases = Object.entries(metrics.phases)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)}`)
        .join(", ");
      const written = metrics.counters["files.written"] ?? metrics.files;
      const cpu = cpuAtExit(metrics);
      const cpuLine = cpu
        ? `; CPU s: build ${cpu.build.toFixed(2)}, its processes ${cpu.processes.toFixed(2)}, portal ${cpu.portal.toFixed(2)}`
        : "";
      console.log(
        `${step} (${checkout}): ${seconds.toFixed(2)} s, ${metrics.peakRssMB} MB, ${written} files written; ${phases}${cpuLine}`,
      );
    }
  }
} finally {
  await portal.close();
}

/** `npm run build`'s command from `checkout`, at most an hour; the last lines of its log when it fails. */
function build(
  checkout: string,
  settings: Record<string, string>,
  args: readonly string[],
): Promise<{ code: number | null; tail: string }> {
  const command = npmScript("build");
  const flags = command.args.filter((arg) => arg.startsWith("--"));
  const script = command.args.slice(flags.length);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...flags, ...nodeFlags, ...script, ...args], {
      cwd: checkout,
      env: { ...benchEnv(settings), ...command.env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let tail = "";
    child.stderr.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), BUILD_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, tail });
    });
  });
}
