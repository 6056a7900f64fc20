// From an edit in the portal to its page in the output folder, with
// `npm run publish-on-change` running as a server of one's own runs it:
// how docs/performance.md ("Edit to live") measures the whole delay, the
// wait for the next check included, instead of adding a mean wait to a
// build's time. The portal runs in this process (the benchmark's dataset,
// seed 1); the command builds once at start (cold, into an empty folder
// unless --work holds an earlier run's), then each edit is made at a moment
// of the check interval spread evenly over it (the k-th of n at
// (k + 0.5) / n of the interval after a check found nothing), and the time
// until the edited event's page shows its new title is taken:
//
//   node --import tsx tools/edit-to-live.ts --work /dev/shm/live --size 50x2000 --every 20 --edits 4
//
// Prints each edit's delay, their mean and the longest, and the builds'
// seconds as the command said them. `--fresh-builds` passes the command's
// own: each build started when the change is found, not ahead. Every wait is bounded (the first build
// by an hour, each edit by ten minutes).
import { spawn } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { benchEnv } from "../bench/build.ts";
import { paths } from "../src/model/url-scheme.ts";
import { npmScript } from "../test/helpers/npm-script.ts";
import { parseSize, portalSettings, startSyntheticPortal } from "./synthetic-portal.ts";

const FIRST_BUILD_LIMIT_MS = 3_600_000;
const EDIT_LIMIT_MS = 600_000;

const { values } = parseArgs({
  options: {
    work: { type: "string" },
    size: { type: "string", default: "50x2000" },
    every: { type: "string", default: "20" },
    edits: { type: "string", default: "4" },
    latency: { type: "string", default: "0" },
    port: { type: "string", default: "0" },
    "fresh-builds": { type: "boolean", default: false },
  },
});
const size = parseSize(values.size);
const every = Number(values.every);
const edits = Number(values.edits);
if (!values.work || !size || !(every >= 1) || !(edits >= 1)) {
  console.error(
    "usage: node --import tsx tools/edit-to-live.ts --work DIR [--size CxE] [--every SECONDS] [--edits N] [--latency MS] [--port N] [--fresh-builds]",
  );
  process.exit(2);
}
const work = path.resolve(values.work);
const output = path.join(work, "site");
await mkdir(work, { recursive: true });

const { portal, dataset } = await startSyntheticPortal(size, {
  port: Number(values.port),
  latencyMs: Number(values.latency),
});

const command = npmScript("publish-on-change");
const child = spawn(
  process.execPath,
  [
    ...command.args,
    "--every",
    String(every),
    "--output",
    output,
    ...(values["fresh-builds"] ? ["--fresh-builds"] : []),
  ],
  {
    env: {
      ...benchEnv(portalSettings(portal, path.join(work, "cache"))),
      ...command.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  },
);
// The command's own lines (its check's and "published in"), timed as they arrive.
const lines: { at: number; text: string }[] = [];
let exited = false;
child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
  for (const text of chunk.split("\n")) {
    if (/^\d{4}-\d\d-\d\dT/.test(text)) lines.push({ at: performance.now(), text });
  }
});
child.on("close", () => {
  exited = true;
});

async function until(what: string, ready: () => boolean | Promise<boolean>, limitMs: number) {
  const deadline = performance.now() + limitMs;
  while (!(await ready())) {
    if (exited) throw new Error(`publish-on-change exited while waiting for ${what}`);
    if (performance.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await sleep(50);
  }
}
const linesAfter = (since: number) => lines.filter((line) => line.at >= since);
const builds = () => lines.filter((line) => / published in /.test(line.text));

try {
  const started = performance.now();
  await until("the build at start", () => builds().length === 1, FIRST_BUILD_LIMIT_MS);
  console.log(`built at start: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const delays: number[] = [];
  for (let k = 0; k < edits; k++) {
    // A check that found nothing, after the last build: the loop now waits its interval.
    const since = builds().at(-1)?.at ?? 0;
    await until(
      "a check that finds nothing",
      () => linesAfter(since).some((line) => line.text.includes(" unchanged: ")),
      EDIT_LIMIT_MS,
    );
    const quiet = linesAfter(since).find((line) => line.text.includes(" unchanged: "))?.at ?? 0;
    await sleep(Math.max(0, quiet + (every * 1000 * (k + 0.5)) / edits - performance.now()));
    const event = dataset.events[(dataset.events.length >> 1) + k];
    if (!event) throw new Error("The dataset has too few events.");
    const title = `Edited to live ${k} ${Date.now()}`;
    const edited = performance.now();
    portal.updateEvent(event.calendarId, event.id, { title });
    const page = path.join(output, paths.event(event.calendarId, event.id), "index.html");
    await until(
      `edit ${k + 1} on its page`,
      () =>
        readFile(page, "utf8").then(
          (html) => html.includes(title),
          () => false,
        ),
      EDIT_LIMIT_MS,
    );
    const delay = (performance.now() - edited) / 1000;
    await until("its build said", () => builds().length === k + 2, EDIT_LIMIT_MS);
    delays.push(delay);
    console.log(
      `edit ${k + 1} of ${edits}, ${((100 * (k + 0.5)) / edits).toFixed(0)}% into the interval: live after ${delay.toFixed(1)} s (${builds().at(-1)?.text.replace(/^\S+ /, "")})`,
    );
  }
  const mean = delays.reduce((sum, d) => sum + d, 0) / delays.length;
  console.log(
    `edit to live, a check every ${every} s, ${size.calendars * size.eventsPerCalendar} events: mean ${mean.toFixed(1)} s, longest ${Math.max(...delays).toFixed(1)} s`,
  );
} finally {
  child.kill("SIGTERM");
  await until("publish-on-change to stop", () => exited, 120_000).catch(() =>
    child.kill("SIGKILL"),
  );
  await portal.close();
}
