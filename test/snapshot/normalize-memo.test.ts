import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { rememberDetailsDigest } from "../../src/api/details-digest.ts";
import { readMetrics } from "../../src/metrics.ts";
import { eventDigest } from "../../src/model/event-digest.ts";
import { EMPTY_FIELD_MAP } from "../../src/model/field-map.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { contentHash } from "../../src/render/published-files.ts";
import { NormalizeAside } from "../../src/snapshot/normalize-aside.ts";
import { NormalizeMemo } from "../../src/snapshot/normalize-memo.ts";
import { hostileDetails } from "../helpers/hostile-records.ts";

const work = mkdtempSync(join(tmpdir(), "ecp-normalize-memo-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const OPTIONS = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };
const CALENDAR = { id: "community", timeZone: "Europe/Amsterdam" };
const TOKEN = "secret-token-123";
const redact = (text: string) => text.replaceAll(TOKEN, "[redacted]");

function record(id: string, description = "<p>A walk through the park.</p>"): WireRecord {
  return {
    id,
    title: `Walk ${id}`,
    start: "2026-12-01T10:00:00+01:00",
    description,
    location: { name: "Amstelpark", address: "Europaboulevard 300, 1083 AD Amsterdam" },
    categories: [{ id: "outdoors", name: "Outdoors" }],
  };
}

/** The events of `records` as one build reads them, through a memo loaded from `cacheDir`. */
function build(cacheDir: string, records: readonly WireRecord[]): CalendarEvent[] {
  const memo = NormalizeMemo.load(cacheDir, OPTIONS, redact);
  // Each build reads the portal's answers afresh: records of their own.
  const events = records.map((listed) => {
    const entry = memo.normalizeEvent(structuredClone(listed), null, CALENDAR, OPTIONS);
    if (!entry.ok) throw new Error(entry.reason);
    return entry.value;
  });
  memo.save();
  return events;
}

const digested = () => readMetrics().counters["events.digested"] ?? 0;

describe("NormalizeMemo", () => {
  it("keeps each event's digest with it: read back, an unchanged event is not hashed again", () => {
    const cacheDir = join(work, "kept");
    const records = [record("a"), record("b"), record("c")];
    let before = digested();
    const first = build(cacheDir, records);
    // Hashed once each, as normalized; the outputs ask again without hashing.
    expect(digested() - before).toBe(3);
    const firstDigests = first.map(eventDigest);
    expect(digested() - before).toBe(3);

    before = digested();
    const edited = [records[0], { ...record("b"), title: "Walk b, new route" }, records[2]];
    const second = build(cacheDir, edited as WireRecord[]);
    const secondDigests = second.map(eventDigest);
    // Only the edited event is hashed; the others' digests are read back, and each is
    // the digest of the event as this build holds it.
    expect(digested() - before).toBe(1);
    for (const event of second) expect(eventDigest(event)).toBe(contentHash(JSON.stringify(event)));
    expect([secondDigests[0], secondDigests[2]]).toEqual([firstDigests[0], firstDigests[2]]);
    expect(secondDigests[1]).not.toBe(firstDigests[1]);
  });

  it("keys an event by its details' body digest where the client kept one: those details are not written out again", () => {
    const cacheDir = join(work, "details-digest");
    const listed = record("a");
    const details = { description: "<p>The long route, with a stop at the café.</p>" };
    const first = NormalizeMemo.load(cacheDir, OPTIONS, redact);
    const told = structuredClone(details);
    rememberDetailsDigest(told, "body-1");
    const made = first.normalizeEvent(structuredClone(listed), told, CALENDAR, OPTIONS);
    if (!made.ok) throw new Error(made.reason);
    expect(made.value.descriptionText).toContain("café");
    first.save();

    // The next build: the same body's details, which must not be read for the key.
    const next = NormalizeMemo.load(cacheDir, OPTIONS, redact);
    const unreadable = new Proxy<WireRecord>(
      {},
      {
        get: () => {
          throw new Error("the details were read");
        },
      },
    );
    rememberDetailsDigest(unreadable, "body-1");
    const reused = readMetrics().counters["normalize.reused"] ?? 0;
    const again = next.normalizeEvent(structuredClone(listed), unreadable, CALENDAR, OPTIONS);
    expect(again).toEqual(made);
    expect((readMetrics().counters["normalize.reused"] ?? 0) - reused).toBe(1);
    // Another body's details: another key, normalized from what they say.
    const other = { description: "<p>The short route.</p>" };
    rememberDetailsDigest(other, "body-2");
    const changed = next.normalizeEvent(structuredClone(listed), other, CALENDAR, OPTIONS);
    expect(changed.ok && changed.value.descriptionText).toContain("short route");
  });

  it("digests an event that held the token as the next build reads it back: redacted", () => {
    const cacheDir = join(work, "token");
    const records = [record("a", `<p>Ask for ${TOKEN} at the gate.</p>`)];
    const [first] = build(cacheDir, records);
    expect(JSON.stringify(first)).toContain(TOKEN);
    expect(readFileSync(join(cacheDir, "normalized-events.json"), "utf8")).not.toContain(TOKEN);

    const [second] = build(cacheDir, records);
    // The value read back is redacted: its digest is that text's, not the first build's event's.
    expect(JSON.stringify(second)).not.toContain(TOKEN);
    expect(eventDigest(second as CalendarEvent)).toBe(contentHash(JSON.stringify(second)));
    expect(eventDigest(second as CalendarEvent)).not.toBe(eventDigest(first as CalendarEvent));
  });
});

/** A copy of the record as a thread receives it; null when it is nested too deep to copy. */
function copyOf(listed: WireRecord): WireRecord | null {
  try {
    return structuredClone(listed);
  } catch {
    return null;
  }
}

describe("NormalizeMemo.normalizeAside", () => {
  it("makes on its thread the entries normalizeEvent makes on the build's, hostile records too", async () => {
    const records: WireRecord[] = [
      record("a"),
      record("b", "<script>alert(1)</script><p onclick='x()'>Walk</p>"),
      { id: "no-start", title: "Nothing to place in time" },
      ...fc.sample(hostileDetails, { numRuns: 120, seed: 39 }).map((details, i) => ({
        ...details,
        id: `hostile-${i}`,
      })),
    ];
    const here = NormalizeMemo.load(join(work, "here"), OPTIONS, redact);
    const there = NormalizeMemo.load(join(work, "there"), OPTIONS, redact);
    const aside = new NormalizeAside();
    try {
      const before = readMetrics().counters["normalize.computedAside"] ?? 0;
      let copied = 0;
      for (const listed of records) {
        const copy = copyOf(listed);
        // Nested deeper than the portal client lets a record through (src/model/wire-depth.ts).
        if (!copy) continue;
        copied++;
        const expected = here.normalizeEvent(copyOf(listed) ?? {}, null, CALENDAR, OPTIONS);
        const answer = await there.normalizeAside(copy, null, CALENDAR, OPTIONS, aside);
        expect(answer, String(listed.id)).toEqual(expected);
        // The snapshot's pass, asking again for the same records, gets the same entry.
        expect(there.normalizeEvent(copy, null, CALENDAR, OPTIONS)).toBe(answer);
      }
      // Most hostile records nest too deep to copy; enough do not.
      expect(copied).toBeGreaterThanOrEqual(20);
      expect((readMetrics().counters["normalize.computedAside"] ?? 0) - before).toBe(copied);
    } finally {
      await aside.close();
    }
  });

  it("answers null once its thread is stopped, for the build's own pass to normalize", async () => {
    const memo = NormalizeMemo.load(join(work, "stopped"), OPTIONS, redact);
    const aside = new NormalizeAside();
    const listed = record("late");
    const pending = memo.normalizeAside(listed, null, CALENDAR, OPTIONS, aside);
    await aside.close();
    expect(await pending).toBeNull();
    expect(await memo.normalizeAside(record("later"), null, CALENDAR, OPTIONS, aside)).toBeNull();
    const entry = memo.normalizeEvent(listed, null, CALENDAR, OPTIONS);
    expect(entry.ok && entry.value.id).toBe("late");
  });
});
