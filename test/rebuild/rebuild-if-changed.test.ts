import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readApiConfig } from "../../src/config/api.ts";
import { readShrinkGuardConfig } from "../../src/config/publish.ts";
import { PublisherError } from "../../src/errors.ts";
import {
  createDemoDataset,
  createSyntheticDataset,
  type RunningPortal,
  startPortal,
} from "../../src/portal/index.ts";
import type { BuildState } from "../../src/rebuild/build-state.ts";
import { rebuildIfChanged } from "../../src/rebuild/rebuild-if-changed.ts";
import {
  type JsonStore,
  REQUESTED_BUILD_WAIT_MS,
  type RequestedBuildMemory,
  storedMemory,
} from "../../src/rebuild/requested-build.ts";
import { publishState } from "../helpers/build-state.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { runScript } from "../helpers/demo-build.ts";
import { buildApiEnv } from "../helpers/portal-env.ts";
import { HOOK_ID, type Recorder, startRecorder } from "../helpers/request-recorder.ts";

/**
 * End to end: the reference portal changes between checks through its
 * programmatic API, the build state is made as the build makes it, and a
 * local stand-in receives the build hook calls.
 */

const demo = createDemoDataset(new Date(NOW));
const inCalendar = (calendarId: string) =>
  demo.events.filter((e) => e.calendarId === calendarId).map((e) => e.id);

let dir: string;
let portal: RunningPortal;
let hook: Recorder;
let env: Record<string, string>;
let site: string;

async function check(nowMs = NOW_MS, shrinkEnv: Record<string, string> = {}) {
  return rebuildIfChanged({
    config: readApiConfig(env),
    published: site,
    nowMs,
    hookUrl: hook.url,
    shrinkGuard: readShrinkGuardConfig(shrinkEnv),
  });
}

/** The same portal, now answering every list with 200 [] (as some portals answer an expired token). */
async function emptyTheLists() {
  const port = Number(new URL(portal.url).port);
  await portal.close();
  portal = await startPortal({ port, now: NOW, pageSizeMax: 10, emptyLists: true });
  env = { ...env, EVENT_API_TOKEN: portal.token };
}

/** The events the published build state recorded. */
function publishedEvents(): number {
  const state = JSON.parse(readFileSync(join(site, "api/build-state.json"), "utf8")) as BuildState;
  return state.portal?.calendars.reduce((sum, calendar) => sum + calendar.events, 0) ?? 0;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "ecp-rebuild-"));
  // Pages of 10 events: every calendar's list spans several pages.
  portal = await startPortal({ port: 0, now: NOW, pageSizeMax: 10 });
  hook = await startRecorder(`/build_hooks/${HOOK_ID}`);
  env = buildApiEnv(portal, dir);
  site = await publishState(env, dir);
});

afterEach(async () => {
  await portal.close();
  await hook.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("rebuildIfChanged", () => {
  it("should request nothing when the portal is unchanged, with every list page answered 304", async () => {
    const requestsBefore = portal.counters.total;
    const detailsBefore = portal.counters.byRoute.details ?? 0;
    const result = await check();

    expect(result.changed).toBe(false);
    expect(hook.calls).toEqual([]);
    expect(result.lines.at(-1)).toMatch(/^unchanged/);
    const state = JSON.parse(
      readFileSync(join(site, "api/build-state.json"), "utf8"),
    ) as BuildState;
    const pages =
      (state.portal?.calendarList.pages.length ?? 0) +
      (state.portal?.calendars.reduce((sum, c) => sum + c.pages.length, 0) ?? 0);
    expect(pages).toBeGreaterThan(8);
    expect(result.requests).toBe(pages);
    expect(result.notModified).toBe(pages);
    // The portal saw exactly those requests, none for an event's details.
    expect(portal.counters.total - requestsBefore).toBe(pages);
    expect(portal.counters.byRoute.details ?? 0).toBe(detailsBefore);
    // What it read: the build state, and not one byte of the portal's lists.
    expect(result.bytes).toBe(statSync(join(site, "api/build-state.json")).size);
    expect(result.lines.at(-2)).toMatch(
      new RegExp(
        `^portal: ${pages} list requests, ${pages} answered 304 Not Modified, [\\d.,]+ kB read, `,
      ),
    );
  });

  it("should read the changed page and its calendar's versions, and no other body, after an edit", async () => {
    portal.updateEvent("culture", inCalendar("culture")[17] as string, { title: "Edited" });
    const state = JSON.parse(
      readFileSync(join(site, "api/build-state.json"), "utf8"),
    ) as BuildState;
    const culture = state.portal?.calendars.find((calendar) => calendar.id === "culture");
    const published =
      statSync(join(site, "api/build-state.json")).size +
      statSync(join(site, culture?.versions ?? "")).size;

    const result = await check();

    // The edited page, and the calendar list, whose calendar's updatedAt moved with the edit.
    expect(result.requests - result.notModified).toBe(2);
    expect(result.bytes).toBeGreaterThan(published);
    expect(result.bytes).toBeLessThan(published + 20_000);
  });

  it.each<[string, () => unknown, string]>([
    [
      "one event changed",
      () =>
        portal.updateEvent("culture", inCalendar("culture")[17] as string, {
          title: "Moved to the big hall",
        }),
      "changed: 1 event updated in 1 calendar; rebuild requested",
    ],
    [
      "an event was added",
      () => {
        const template = demo.events.find((e) => e.calendarId === "sport") ?? demo.events[0];
        portal.addEvent({
          ...(template as (typeof demo.events)[number]),
          id: "new-run-1",
          title: "Extra run",
        });
      },
      "changed: 1 event added in 1 calendar; rebuild requested",
    ],
    [
      "an event was removed",
      () => portal.deleteEvent("city", inCalendar("city")[3] as string),
      "changed: 1 event removed in 1 calendar; rebuild requested",
    ],
    [
      "an event moved to another calendar",
      () => portal.moveEvent("community", inCalendar("community")[5] as string, "culture"),
      "changed: 1 event moved to another calendar in 2 calendars; rebuild requested",
    ],
  ])("should call the hook exactly once when %s", async (_what, edit, line) => {
    edit();

    const result = await check();

    expect(hook.calls).toHaveLength(1);
    expect(result.lines.at(-1)).toBe(line);
  });

  it("should sum up several changes in one line and one call", async () => {
    portal.updateEvent("culture", inCalendar("culture")[2] as string, { title: "A" });
    portal.updateEvent("city", inCalendar("city")[30] as string, { title: "B" });
    portal.deleteEvent("city", inCalendar("city")[0] as string);
    const template = demo.events.find((e) => e.calendarId === "culture");
    portal.addEvent({ ...(template as (typeof demo.events)[number]), id: "late-addition" });

    const result = await check();

    expect(hook.calls).toHaveLength(1);
    expect(result.lines.at(-1)).toBe(
      "changed: 2 events updated, 1 added, 1 removed in 2 calendars; rebuild requested",
    );
  });

  it("should be unchanged again once the build after a change is published", async () => {
    portal.updateEvent("sport", inCalendar("sport")[1] as string, { title: "Renamed" });
    expect((await check()).changed).toBe(true);
    site = await publishState(env, dir);

    const again = await check();

    expect(again.changed).toBe(false);
    expect(hook.calls).toHaveLength(1);
  });

  it("should request one build once the next date-relative moment has passed", async () => {
    const state = JSON.parse(
      readFileSync(join(site, "api/build-state.json"), "utf8"),
    ) as BuildState;
    const due = Date.parse(state.nextChange?.rebuildAt ?? "");
    expect(due).toBeGreaterThan(NOW_MS);

    const before = await check(due - 1000);
    expect(before.changed).toBe(false);
    expect(hook.calls).toHaveLength(0);

    const after = await check(due);
    expect(hook.calls).toHaveLength(1);
    expect(after.lines.at(-1)).toMatch(
      /^changed: date-relative change due since \S+Z \(.+\); rebuild requested$/,
    );
  });

  it("should report calendars added, removed and renamed, with their events", async () => {
    const port = Number(new URL(portal.url).port);
    await portal.close();
    const dataset = createDemoDataset(new Date(NOW));
    const culture = dataset.calendars.find((c) => c.id === "culture");
    const firstConcert = dataset.events.find((e) => e.calendarId === "culture");
    const changed = {
      ...dataset,
      calendars: [
        ...dataset.calendars
          .filter((c) => c.id !== "sport")
          .map((c) => (c.id === "city" ? { ...c, name: "City & Harbour" } : c)),
        { ...(culture as (typeof dataset.calendars)[number]), id: "music", name: "Music" },
      ],
      events: [
        ...dataset.events.filter((e) => e.calendarId !== "sport"),
        { ...(firstConcert as (typeof dataset.events)[number]), calendarId: "music", id: "m-1" },
      ],
    };
    portal = await startPortal({ port, now: NOW, pageSizeMax: 10, dataset: changed });
    env = { ...env, EVENT_API_TOKEN: portal.token };
    const sportEvents = inCalendar("sport").length;

    // A calendar of that size gone is what the shrink guard stops, unless allowed.
    await expect(check()).rejects.toThrow(/the shrink guard would stop it/);
    const result = await check(NOW_MS, { ALLOW_SHRINK: "1" });

    expect(hook.calls).toHaveLength(1);
    expect(result.lines.at(-1)).toBe(
      `changed: 1 calendar added, 1 removed, 1 changed; 1 event added, ${sportEvents} removed in 2 calendars; rebuild requested with ALLOW_SHRINK=1`,
    );
  });

  it("should see an event added after a full last page, whose bytes did not change", async () => {
    const port = Number(new URL(portal.url).port);
    await portal.close();
    // 20 events in pages of 10: both pages full, then one more at the very end.
    portal = await startPortal({
      port,
      now: NOW,
      pageSizeMax: 10,
      synthetic: { calendars: 1, eventsPerCalendar: 20 },
    });
    env = { ...env, EVENT_API_TOKEN: portal.token };
    site = await publishState(env, dir);
    const last = createSyntheticDataset({
      calendars: 1,
      eventsPerCalendar: 20,
      seed: 1,
      now: NOW,
    }).events.sort((a, b) => Date.parse(b.end) - Date.parse(a.end))[0];
    portal.addEvent({
      ...(last as (typeof demo.events)[number]),
      id: "the-very-last",
      start: "2027-01-01T10:00:00+01:00",
      end: "2027-01-01T11:00:00+01:00",
      allDay: false,
    });

    const result = await check();

    expect(result.lines.at(-1)).toBe("changed: 1 event added in 1 calendar; rebuild requested");
    expect(hook.calls).toHaveLength(1);
  });

  it("should name the setting that differs from the build's, and not count the calendars' order", async () => {
    site = await publishState({ ...env, EVENT_API_CALENDARS: "culture,sport" }, dir);
    const checkWith = (extra: Record<string, string>) =>
      rebuildIfChanged({
        config: readApiConfig({ ...env, ...extra }),
        published: site,
        nowMs: NOW_MS,
        hookUrl: hook.url,
      });

    const reordered = await checkWith({ EVENT_API_CALENDARS: "sport,culture" });
    expect(reordered.lines.at(-1)).toMatch(/^unchanged/);
    await expect(checkWith({ EVENT_API_CALENDARS: "culture" })).rejects.toThrow(
      /^The published site was built with another EVENT_API_CALENDARS than this check has; give the check the same value/,
    );
    await expect(
      checkWith({
        EVENT_API_CALENDARS: "culture",
        EVENT_API_FIELD_MAP: '{"event":{"title":"name"}}',
      }),
    ).rejects.toThrow(/with other EVENT_API_CALENDARS or EVENT_API_FIELD_MAP than this check has/);
    expect(hook.calls).toEqual([]);
  });

  it("should request no build, and say why, when the portal answers the token with empty lists", async () => {
    const published = publishedEvents();
    expect(published).toBeGreaterThan(100);
    await emptyTheLists();

    for (let run = 0; run < 2; run++) {
      await expect(check()).rejects.toThrow(
        `No build requested, because the shrink guard would stop it: the site would have no events (it had ${published}); the portal's lists hold 0 events where the published site has ${published}. Check EVENT_API_TOKEN and the portal, or, if the events really were removed, allow it once with ALLOW_SHRINK=1 (docs/deploy.md, "Shrink guard").`,
      );
    }
    expect(hook.calls).toEqual([]);
  });

  it("should request the build with ALLOW_SHRINK=1, and allow that build too", async () => {
    const published = publishedEvents();
    await emptyTheLists();

    const result = await check(NOW_MS, { ALLOW_SHRINK: "1" });

    expect(result.lines.at(-1)).toBe(
      `changed: 4 calendars removed; ${published} events removed in 4 calendars; rebuild requested with ALLOW_SHRINK=1`,
    );
    expect(hook.calls).toHaveLength(1);
    // The body is the build's one-build allowance (Netlify's INCOMING_HOOK_BODY).
    expect(readShrinkGuardConfig({ INCOMING_HOOK_BODY: hook.calls[0]?.body }).allow).toBe(true);
  });

  it("should stop at a calendar emptied as the build would, with the guard's own limits", async () => {
    const sport = inCalendar("sport");
    expect(sport.length).toBeGreaterThanOrEqual(10);
    for (const id of sport) portal.deleteEvent("sport", id);

    await expect(check()).rejects.toThrow(
      `the shrink guard would stop it: calendar "sport" would drop from ${sport.length} to 0 events;`,
    );
    expect(hook.calls).toEqual([]);

    // A calendar smaller than SHRINK_GUARD_MIN_EVENTS may empty, in the check as in the build.
    const result = await check(NOW_MS, { SHRINK_GUARD_MIN_EVENTS: String(sport.length + 1) });
    expect(result.lines.at(-1)).toBe(
      `changed: ${sport.length} events removed in 1 calendar; rebuild requested`,
    );
    expect(hook.calls).toHaveLength(1);
    expect(readShrinkGuardConfig({ INCOMING_HOOK_BODY: hook.calls[0]?.body }).allow).toBe(false);
  });

  it("should refuse to tell, and call nothing, when the portal is down", async () => {
    await portal.close();

    await expect(check()).rejects.toThrow(PublisherError);
    expect(hook.calls).toEqual([]);
  });
});

describe("rebuildIfChanged every minute, remembering the build it requested", () => {
  /** The host's key-value store, in memory. */
  function memoryStore(): JsonStore & { values: Map<string, unknown> } {
    const values = new Map<string, unknown>();
    return {
      values,
      get: async (key) => structuredClone(values.get(key) ?? null),
      setJSON: async (key, data) => {
        values.set(key, structuredClone(data));
      },
    };
  }

  const everyMinute = (requested: RequestedBuildMemory, nowMs = NOW_MS, published = site) =>
    rebuildIfChanged({
      config: readApiConfig(env),
      published,
      nowMs,
      hookUrl: hook.url,
      requested,
    });

  it("should request one build per change while the requested build is not published yet", async () => {
    const memory = storedMemory(memoryStore());
    portal.updateEvent("culture", inCalendar("culture")[2] as string, { title: "First" });

    expect((await everyMinute(memory)).requested).toBe(true);
    const meanwhile = await everyMinute(memory, NOW_MS + 60_000);

    expect(hook.calls).toHaveLength(1);
    expect(meanwhile.changed).toBe(true);
    expect(meanwhile.lines.at(-1)).toBe(
      `changed: 1 event updated in 1 calendar; a rebuild for it was requested at ${new Date(NOW_MS).toISOString()} and is not published yet, so none was requested again`,
    );

    portal.updateEvent("city", inCalendar("city")[3] as string, { title: "Second" });
    expect((await everyMinute(memory, NOW_MS + 120_000)).requested).toBe(true);
    expect((await everyMinute(memory, NOW_MS + 180_000)).requested).toBe(false);
    expect(hook.calls).toHaveLength(2);

    site = await publishState(env, dir);
    expect((await everyMinute(memory, NOW_MS + 240_000)).changed).toBe(false);
    expect(hook.calls).toHaveLength(2);
  });

  it("should not request again what a build under way already reads, when an earlier build is published meanwhile", async () => {
    const memory = storedMemory(memoryStore());
    portal.updateEvent("culture", inCalendar("culture")[2] as string, { title: "First" });
    await everyMinute(memory);
    // The first build read the portal with the first edit only, and is published later.
    const firstBuild = await publishState(env, join(dir, "first-build"));
    portal.updateEvent("city", inCalendar("city")[3] as string, { title: "Second" });
    await everyMinute(memory, NOW_MS + 60_000);
    expect(hook.calls).toHaveLength(2);

    const afterFirst = await everyMinute(memory, NOW_MS + 120_000, firstBuild);

    expect(afterFirst.lines.at(-1)).toMatch(
      /^changed: 1 event updated in 1 calendar; a rebuild for it was requested at \S+ and is not published yet/,
    );
    expect(hook.calls).toHaveLength(2);
  });

  it("should request the same change again once a requested build had time to be published (it failed)", async () => {
    const state = JSON.parse(
      readFileSync(join(site, "api/build-state.json"), "utf8"),
    ) as BuildState;
    const waited = NOW_MS + REQUESTED_BUILD_WAIT_MS;
    // No date-relative moment falls in the wait, which would be a change of its own.
    expect(Date.parse(state.nextChange?.rebuildAt ?? "")).toBeGreaterThan(waited);
    const memory = storedMemory(memoryStore());
    portal.updateEvent("sport", inCalendar("sport")[1] as string, { title: "Renamed" });

    await everyMinute(memory);
    await everyMinute(memory, waited - 1000);
    expect(hook.calls).toHaveLength(1);

    expect((await everyMinute(memory, waited)).requested).toBe(true);
    expect(hook.calls).toHaveLength(2);
  });

  it("should still request the build, and say so, when the store cannot be read or written", async () => {
    const broken: JsonStore = {
      // A store that never answers a read, and refuses a write.
      get: () => new Promise(() => undefined),
      setJSON: () => Promise.reject(new Error("store unavailable (HTTP 503)")),
    };
    portal.updateEvent("sport", inCalendar("sport")[1] as string, { title: "Renamed" });

    const result = await everyMinute(storedMemory(broken, 200));

    expect(hook.calls).toHaveLength(1);
    expect(result.lines.slice(-3)).toEqual([
      "the last requested build could not be read: no answer within 0.2 s",
      "the requested build could not be remembered: store unavailable (HTTP 503)",
      "changed: 1 event updated in 1 calendar; rebuild requested",
    ]);
  });
});

describe("npm run rebuild-if-changed", () => {
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runScript("src/cli/rebuild-if-changed.ts", args, {
      ...env,
      BUILD_HOOK_URL: hook.url,
      ...extra,
    });

  it("should end with 'unchanged' and exit 0, and call nothing", async () => {
    const run = await cli(["--published", site]);

    expect(run.status).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/^unchanged/);
    expect(hook.calls).toEqual([]);
  });

  it("should end with 'changed: ...' and exit 0 after calling the hook once", async () => {
    portal.updateEvent("city", inCalendar("city")[10] as string, { title: "Changed" });

    const run = await cli(["--published", site]);

    expect(run.status).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toBe(
      "changed: 1 event updated in 1 calendar; rebuild requested",
    );
    expect(hook.calls).toHaveLength(1);
  });

  it("should exit 1 with the guard's reason and call nothing when the shrink guard would stop the build; ALLOW_SHRINK=1 lets it through", async () => {
    const published = publishedEvents();
    await emptyTheLists();

    const stopped = await cli(["--published", site]);

    expect(stopped.status).toBe(1);
    expect(stopped.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^portal: \d+ list requests, 0 answered 304 Not Modified, /),
    ]);
    expect(stopped.stderr.trim().split("\n")).toEqual([
      `error: No build requested, because the shrink guard would stop it: the site would have no events (it had ${published}); the portal's lists hold 0 events where the published site has ${published}. Check EVENT_API_TOKEN and the portal, or, if the events really were removed, allow it once with ALLOW_SHRINK=1 (docs/deploy.md, "Shrink guard").`,
    ]);
    expect(hook.calls).toEqual([]);

    const allowed = await cli(["--published", site], { ALLOW_SHRINK: "1" });

    expect(allowed.status).toBe(0);
    expect(allowed.stdout.trim().split("\n").at(-1)).toBe(
      `changed: 4 calendars removed; ${published} events removed in 4 calendars; rebuild requested with ALLOW_SHRINK=1`,
    );
    expect(hook.calls.map((call) => call.body)).toEqual(["ALLOW_SHRINK=1"]);
  });

  it.each<[string, () => Promise<unknown>, RegExp, string[]?]>([
    ["the portal is down", async () => portal.close(), /^error: Cannot reach the portal/],
    [
      "the token is rejected",
      async () => {
        portal.revokeToken(portal.token);
      },
      /^error: The portal rejected the token \(HTTP 401\)/,
    ],
    [
      "the published site's address is mistyped",
      async () => {},
      /^error: Cannot read the build state: .*127\.0\.0\.9.* is --published \(or SITE_URL\) the published site's address\?$/,
      ["--published", "http://127.0.0.9:9/site/"],
    ],
    [
      "the build state is unreadable",
      async () => rmSync(join(site, "api/build-state.json")),
      /^error: .*build-state\.json does not exist: is .* the output folder of a build \(check --published\)\? If it is, build the site once/,
    ],
  ])(
    "should exit 1 with one clear line and call nothing when %s",
    async (_what, breakIt, line, args) => {
      await breakIt();

      const run = await cli(args ?? ["--published", site]);

      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toEqual([expect.stringMatching(line)]);
      // One sentence's end, once: no doubled periods where messages are joined.
      expect(run.stderr).not.toMatch(/[^.]\.\.(?!\.)/);
      expect(hook.calls).toEqual([]);
    },
  );
});

describe("rebuild-if-changed secrets", () => {
  let local: { dir: string; portal: RunningPortal; hook: Recorder }[] = [];
  beforeAll(() => {
    local = [];
  });
  afterAll(async () => {
    for (const l of local) {
      await l.portal.close();
      await l.hook.close();
      rmSync(l.dir, { recursive: true, force: true });
    }
  });

  it.each(["bearer", "header:X-Api-Key", "query:api_key"])(
    "should never print the token or the hook URL (%s)",
    async (auth) => {
      const d = mkdtempSync(join(tmpdir(), "ecp-rebuild-secrets-"));
      const p = await startPortal({ port: 0, now: NOW, pageSizeMax: 10, auth });
      const h = await startRecorder(`/build_hooks/${HOOK_ID}`, 404);
      local.push({ dir: d, portal: p, hook: h });
      const e = buildApiEnv(p, d, { EVENT_API_AUTH: auth, BUILD_HOOK_URL: h.url });
      const published = await publishState(e, d);
      const stateText = readFileSync(join(published, "api/build-state.json"), "utf8");

      const unchanged = await runScript(
        "src/cli/rebuild-if-changed.ts",
        ["--published", published],
        e,
      );
      p.updateEvent("city", inCalendar("city")[0] as string, { title: "x" });
      // The hook answers 404: the failure line must not show it either.
      const refused = await runScript(
        "src/cli/rebuild-if-changed.ts",
        ["--published", published],
        e,
      );
      p.revokeToken(p.token);
      const rejected = await runScript(
        "src/cli/rebuild-if-changed.ts",
        ["--published", published],
        e,
      );

      expect(unchanged.status).toBe(0);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toMatch(
        /rebuild NOT requested: build hook .*\/build_hooks\/\*\*\* answered HTTP 404/,
      );
      expect(rejected.status).toBe(1);
      expect(h.calls).toHaveLength(1);
      for (const text of [unchanged.log, refused.log, rejected.log, stateText]) {
        expect(text).not.toContain(p.token);
        expect(text).not.toContain(HOOK_ID);
      }
    },
  );
});
