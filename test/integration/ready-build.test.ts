import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { startPortal } from "../../src/portal/index.ts";
import { createSyntheticDataset } from "../../src/portal/synthetic-dataset.ts";
import { NOW } from "../helpers/clock.ts";
import { startScriptWithInput } from "../helpers/demo-build.ts";
import { fileBytesSync } from "../helpers/files.ts";
import { type BuildMetrics, counter, meteredBuild } from "../helpers/metered-build.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { useForTests } from "../helpers/use-for-tests.ts";

/*
 * A build started ahead (`npm run build -- --ready`, src/ready), as
 * `npm run publish-on-change` starts each of its builds: it reads what the
 * last build kept, waits for "go" on its input, and then builds what the
 * portal shows at that moment, byte for byte what a build started then
 * writes, with the kept files it read ahead taken rather than read again.
 * One whose input ends before the go does nothing.
 */

const work = tempDir("ecp-ready-build-");
const dataset = createSyntheticDataset({
  calendars: 3,
  eventsPerCalendar: 30,
  seed: 11,
  now: new Date(NOW),
});
const portal = useForTests(
  "a small portal",
  () => startPortal({ port: 0, now: NOW, dataset }),
  (running) => running.close(),
);
const SETTINGS = { SHARE_CARDS: "off" };

function settings(folder: string) {
  const running = portal();
  return {
    EVENT_API_URL: running.url,
    EVENT_API_TOKEN: running.token,
    EVENT_API_CACHE_DIR: join(folder, "cache"),
    EVENT_API_PAGE_SIZE_PARAM: "limit",
    ...SETTINGS,
  };
}

/** `npm run build -- --ready` into `folder`'s site, told to go or not by `input`; its exit, log and metrics. */
async function readyBuild(folder: string, input: string) {
  const metricsFile = join(folder, "ready-metrics.json");
  const child = startScriptWithInput(
    "src/cli/build.ts",
    ["--output", join(folder, "site"), "--metrics", metricsFile, "--ready"],
    settings(folder),
  );
  let log = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  const status = await new Promise<number | null>((done) => {
    child.on("close", done);
    child.stdin.end(input);
  });
  const metrics = (): BuildMetrics => JSON.parse(readFileSync(metricsFile, "utf8"));
  return { status, log, metrics };
}

function build(folder: string, name: string): Promise<BuildMetrics> {
  const running = portal();
  return meteredBuild(join(folder, "site"), {
    portal: running,
    cacheDir: join(folder, "cache"),
    metricsFile: join(folder, `${name}.json`),
    env: SETTINGS,
  });
}

let first: Promise<string> | undefined;
/** A copy, in `name`, of one published build of the portal as it was first. */
async function published(name: string): Promise<string> {
  first ??= build(join(work, "first"), "first").then(() => join(work, "first"));
  const folder = join(work, name);
  cpSync(await first, folder, { recursive: true });
  return folder;
}

describe("a build started ahead", () => {
  it("should write what a build started at its go writes, after an edit made while it waited, with the kept files read ahead", async () => {
    const ready = await published("ready");
    const fresh = await published("fresh");

    const event = dataset.events.find((e) => Date.parse(e.start) > Date.parse(NOW));
    if (!event) throw new Error("The portal has too few events.");
    // Made before the go: what the build fetches is what the portal shows when it goes.
    portal().updateEvent(event.calendarId, event.id, { title: "Edited while it waited" });
    const went = await readyBuild(ready, "go\n");
    expect(went.status, went.log).toBe(0);
    const started = await build(fresh, "fresh");

    expect(fileBytesSync(join(ready, "site"))).toEqual(fileBytesSync(join(fresh, "site")));
    const page = join(ready, "site", paths.event(event.calendarId, event.id), "index.html");
    expect(readFileSync(page, "utf8")).toContain("Edited while it waited");
    // The normalized events, the last publish's list of files, the calendar files' sizes and
    // the rich results: read ahead and taken, none found changed.
    const metrics = went.metrics();
    expect(counter(metrics, "readAhead.taken")).toBe(4);
    expect(counter(metrics, "readAhead.stale")).toBe(0);
    expect(counter(started, "readAhead.taken")).toBe(0);
  });

  it("should end doing nothing, the site as it was, when its input ends before the go", async () => {
    const folder = await published("not-needed");
    const before = fileBytesSync(join(folder, "site"));
    const ended = await readyBuild(folder, "");
    expect(ended.status, ended.log).toBe(0);
    expect(ended.log).toBe("");
    expect(fileBytesSync(join(folder, "site"))).toEqual(before);
    // No staging folder left beside the site.
    expect(readdirSync(folder).sort()).toEqual(["cache", "first.json", "site"]);
  });
});
