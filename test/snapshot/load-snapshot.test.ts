import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiUnavailableError } from "../../src/api/errors.ts";
import { AuthError } from "../../src/errors.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { fetchPortal, progressRecorder, snapshotOf } from "../helpers/fetch-portal.ts";
import { fileBytesSync, filesWithContent } from "../helpers/files.ts";
import { apiEnv } from "../helpers/portal-env.ts";
import { tempDir } from "../helpers/temp-dir.ts";

let portal: RunningPortal;

beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW });
});
afterAll(() => portal.close());
beforeEach(() => {
  portal.resetCounters();
});

describe("loadSnapshot", () => {
  it("should load every calendar, event and details record of the organization", async () => {
    const snapshot = await snapshotOf(apiEnv(portal));
    expect(snapshot.source).toBe(portal.url);
    expect(snapshot.fetchedAt).toBe("2026-03-20T12:00:00.000Z");
    // "library" belongs to another organization (docs/dataset.md).
    expect(snapshot.calendars.map((c) => c.id).sort()).toEqual([
      "city",
      "community",
      "culture",
      "sport",
    ]);
    expect(snapshot.warnings).toEqual([]);
    const counters = portal.counters;
    expect(counters.byRoute.details).toBe(snapshot.events.length);
    expect(snapshot.events.every((e) => e.descriptionHtml !== "" && e.sequence >= 1)).toBe(true);
    const starts = snapshot.events.map((e) => Date.parse(e.start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("should reuse unchanged details and revalidate lists with conditional requests", async () => {
    const env = apiEnv(portal);
    const cold = await snapshotOf(env);
    const coldCounters = portal.counters;
    portal.resetCounters();

    const warm = await snapshotOf(env);
    expect(warm).toEqual(cold);
    const warmCounters = portal.counters;
    expect(warmCounters.byRoute.details ?? 0).toBe(0);
    expect(warmCounters.byStatus["304"]).toBe(warmCounters.total);
    expect(warmCounters.total).toBe(coldCounters.total - (coldCounters.byRoute.details ?? 0));

    const target = cold.events[5];
    if (!target) throw new Error("the demo dataset has events");
    portal.updateEvent(target.calendarId, target.id, { title: "Renamed in the portal" });
    portal.resetCounters();
    const changed = await snapshotOf(env);
    expect(portal.counters.byRoute.details).toBe(1);
    const updated = changed.events.find(
      (e) => e.id === target.id && e.calendarId === target.calendarId,
    );
    expect(updated?.title).toBe("Renamed in the portal");
    expect(updated?.sequence).toBe(target.sequence + 1);
  });

  it("should not write cached responses again when the portal confirms them (304) at the default EVENT_API_CACHE_DURATION", async () => {
    const env = apiEnv(portal);
    const cacheDir = env.EVENT_API_CACHE_DIR as string;
    await snapshotOf(env);
    const cold = fileBytesSync(cacheDir);
    portal.resetCounters();

    await snapshotOf(env);
    expect(portal.counters.byStatus["304"]).toBe(portal.counters.total);
    const rewritten = [...fileBytesSync(cacheDir)].filter(
      ([name, bytes]) => cold.get(name) !== bytes,
    );
    // Only the last good snapshot's entry, stored after every good fetch
    // (EVENT_API_ALLOW_STALE); none of the lists the portal answered 304.
    expect(rewritten).toHaveLength(1);
    expect(portal.counters.total).toBeGreaterThan(rewritten.length);
  });

  it("should say how many events the lists name as they come in, before the details are all read", async () => {
    const listed: number[] = [];
    let detailsWhenListed = -1;
    const fetched = await fetchPortal(apiEnv(portal), {
      onListed: (events) => {
        if (listed.length === 0) detailsWhenListed = portal.counters.byRoute.details ?? 0;
        listed.push(events);
      },
    });
    const events = fetched.snapshot.events.length;
    // The build sizes its heap on this while the details still come in (src/cli/render-site.ts).
    expect(detailsWhenListed).toBeLessThan(events);
    expect(listed.at(-1)).toBe(events);
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
  });

  it("should hand onEvent every event of the snapshot once, before it returns, whatever onEvent throws", async () => {
    const seen: string[] = [];
    const fetched = await fetchPortal(apiEnv(portal), {
      // The build draws each event's cards from here while the portal is still read.
      onEvent: (event) => {
        seen.push(`${event.calendarId}/${event.id}`);
        if (seen.length % 7 === 0) throw new Error("a card that cannot be drawn");
      },
    });
    const events = fetched.snapshot.events.map((event) => `${event.calendarId}/${event.id}`);
    expect(events.length).toBeGreaterThan(20);
    // The snapshot's own pass meets any trouble again: none is lost to an early throw.
    expect(fetched.snapshot.warnings).toEqual([]);
    expect([...seen].sort()).toEqual([...events].sort());
  });

  it("should not ask the portal again within EVENT_API_CACHE_DURATION", async () => {
    const env = apiEnv(portal, { EVENT_API_CACHE_DURATION: "1h" });
    const first = await snapshotOf(env);
    portal.resetCounters();
    const second = await snapshotOf(env);
    expect(second).toEqual(first);
    expect(portal.counters.total).toBe(0);
  });

  it("should print phases, warnings and a summary line on a non-terminal", async () => {
    const sink = progressRecorder(false);
    await snapshotOf(apiEnv(portal), { sink });
    const lines = sink.text().trim().split("\n");
    expect(lines).toContain("Portal: calendars 1/1");
    expect(lines).toContain("Portal: event lists 4/4");
    expect(lines.at(-1)).toMatch(
      /^Portal: 4 calendars, \d+ events, \d+ requests \(0 retries, 0 not modified, 0 from cache\), 0 details reused, 0 warnings, [\d.]+ m?s$/,
    );
  });

  it("should draw a live bar on a terminal and clear it before the summary", async () => {
    const sink = progressRecorder(true);
    await snapshotOf(apiEnv(portal), { sink });
    const clear = "\r\u001b[2K";
    expect(sink.text()).toMatch(/\[#+\.*\] event details \d+\/\d+/);
    expect(sink.text()).toContain(`${clear}Portal: [`);
    expect(sink.text()).toContain(`${clear}Portal: 4 calendars`);
  });

  it("should reject a bad token with an actionable message", async () => {
    const load = snapshotOf(apiEnv(portal, { EVENT_API_TOKEN: "ecp_wrong_token" }));
    await expect(load).rejects.toThrow(AuthError);
    await expect(load).rejects.toThrow(
      /ask the Organization Administrator for a new one and set it in EVENT_API_TOKEN/,
    );
  });

  it("should say which calendar is not available to the organization", async () => {
    const load = snapshotOf(apiEnv(portal, { EVENT_API_CALENDARS: "community,library" }));
    await expect(load).rejects.toThrow(
      /Calendar "library" \(EVENT_API_CALENDARS\) is not available to this organization/,
    );
  });

  it("should include only the calendars asked for", async () => {
    const snapshot = await snapshotOf(apiEnv(portal, { EVENT_API_CALENDARS: "culture" }));
    expect(snapshot.calendars.map((c) => c.id)).toEqual(["culture"]);
    expect(new Set(snapshot.events.map((e) => e.calendarId))).toEqual(new Set(["culture"]));
  });
});

describe("loadSnapshot with the portal down", () => {
  it("should fail by default, and with EVENT_API_ALLOW_STALE use a young enough cached snapshot loudly", async () => {
    const down = await startPortal({ port: 0, now: NOW });
    const env = apiEnv(down, { EVENT_API_RETRIES: "1", EVENT_API_RETRY_MAX_WAIT: "10ms" });
    const good = await snapshotOf(env);
    await down.close();

    const strict = snapshotOf(env);
    await expect(strict).rejects.toThrow(ApiUnavailableError);
    await expect(strict).rejects.toThrow(
      /Cannot reach the portal at 127\.0\.0\.1:\d+: connection refused.*\(after 2 attempts\)/,
    );

    const sink = progressRecorder(false);
    const stale = await snapshotOf({ ...env, EVENT_API_ALLOW_STALE: "1h" }, { sink });
    expect(stale.events).toEqual(good.events);
    expect(stale.fetchedAt).toBe(good.fetchedAt);
    expect(stale.warnings.at(-1)).toMatch(/^STALE DATA: the portal is unavailable/);
    expect(sink.text()).toContain("!!! STALE DATA");

    const empty = snapshotOf({
      ...env,
      EVENT_API_ALLOW_STALE: "1h",
      EVENT_API_CACHE_DIR: tempDir(),
    });
    await expect(empty).rejects.toThrow(
      /EVENT_API_ALLOW_STALE=.* cannot help: there is no cached data/,
    );
  });

  it("should keep the last good snapshot's events once, and fall back on them after an upgrade", async () => {
    const down = await startPortal({ port: 0, now: NOW });
    const env = apiEnv(down, { EVENT_API_RETRIES: "0", EVENT_API_ALLOW_STALE: "1h" });
    const good = await snapshotOf(env);
    await down.close();
    const cacheDir = env.EVENT_API_CACHE_DIR as string;

    // The normalized events are written once: the last good snapshot names them by their keys.
    const snapshots = filesWithContent(cacheDir).filter((f) => f.content.includes('"eventKeys"'));
    expect(snapshots).toHaveLength(1);
    const described = good.events.filter((event) => event.descriptionHtml.length > 40);
    expect(described.length).toBeGreaterThan(5);
    for (const event of described) {
      expect(snapshots[0]?.content).not.toContain(JSON.stringify(event.descriptionHtml));
    }

    // Kept by another version of the code, they are still the data to fall back on.
    const memo = join(cacheDir, "normalized-events.json");
    const stored = JSON.parse(readFileSync(memo, "utf8"));
    writeFileSync(memo, JSON.stringify({ ...stored, code: "an earlier version" }));
    expect((await snapshotOf(env)).events).toEqual(good.events);

    // Gone, the fallback says why it cannot help.
    rmSync(memo);
    await expect(snapshotOf(env)).rejects.toThrow(
      /EVENT_API_ALLOW_STALE=.* cannot help: the cached data is incomplete/,
    );
  });

  it("should keep each organization's last good snapshot to its own token", async () => {
    const shared = await startPortal({ port: 0, now: NOW });
    const other = shared.issueToken("riverside-library");
    const cacheDir = tempDir();
    const base = {
      EVENT_API_RETRIES: "0",
      EVENT_API_CACHE_DIR: cacheDir,
      EVENT_API_ALLOW_STALE: "1h",
    };
    const ours = apiEnv(shared, base);
    const theirs = { ...ours, EVENT_API_TOKEN: other };
    const good = await snapshotOf(ours);
    await shared.close();

    // Same URL, same cache, portal down: the other organization's token gets nothing.
    const foreign = snapshotOf(theirs);
    await expect(foreign).rejects.toThrow(ApiUnavailableError);
    await expect(foreign).rejects.toThrow(/cannot help: there is no cached data/);
    const own = await snapshotOf(ours);
    expect(own.events).toEqual(good.events);
    // The key holds a hash of the token, never the token or a part of it.
    for (const file of filesWithContent(cacheDir)) {
      expect(file.content).not.toContain(shared.token);
      expect(file.content).not.toContain(shared.token.slice(-20));
    }
  });

  it("should not fall back to stale data when the token is rejected", async () => {
    const env = apiEnv(portal);
    await snapshotOf(env);
    const load = snapshotOf({
      ...env,
      EVENT_API_TOKEN: "ecp_revoked_token",
      EVENT_API_ALLOW_STALE: "1d",
    });
    await expect(load).rejects.toThrow(AuthError);
  });
});

describe("loadSnapshot and the token", () => {
  it.each(["bearer", "header:X-Api-Key", "query:api_key"])(
    "should keep the token out of cache files, progress and errors (%s)",
    async (auth) => {
      const own = await startPortal({ port: 0, now: NOW, auth, paging: "link" });
      try {
        const env = apiEnv(own, { EVENT_API_AUTH: auth, EVENT_API_RETRIES: "0" });
        const sink = progressRecorder(false);
        const snapshot = await snapshotOf(env, { sink });
        expect(snapshot.events.length).toBeGreaterThan(0);
        await snapshotOf(env, { sink });
        const files = filesWithContent(env.EVENT_API_CACHE_DIR as string);
        // The cache holds every list and every event's details: the files to check are the real ones.
        const cached = files.map((file) => file.content).join("\n");
        for (const event of snapshot.events) expect(cached).toContain(JSON.stringify(event.title));
        for (const file of files) {
          expect(file.name).not.toContain(own.token);
          expect(file.content).not.toContain(own.token);
          expect(file.content).not.toContain(encodeURIComponent(own.token));
        }
        expect(sink.text()).not.toContain(own.token);
        expect(JSON.stringify(snapshot)).not.toContain(own.token);

        const messages: string[] = [];
        for (const extra of [
          { EVENT_API_CALENDARS: "library" },
          { EVENT_API_URL: `${own.url}/nowhere` },
        ]) {
          await snapshotOf({ ...env, ...extra }).catch((error: Error) =>
            messages.push(
              `${error.message} ${String((error.cause as Error | undefined)?.message)}`,
            ),
          );
        }
        await own.close();
        await snapshotOf(env).catch((error: Error) =>
          messages.push(`${error.message} ${String((error.cause as Error | undefined)?.message)}`),
        );
        expect(messages).toHaveLength(3);
        for (const message of messages) expect(message).not.toContain(own.token);
      } finally {
        await own.close();
      }
    },
  );
});
