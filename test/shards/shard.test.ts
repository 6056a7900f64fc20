import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventShardKey, owns, parseShard, searchPartShardKey } from "../../src/shards/shard.ts";

/*
 * Which shard of a split build renders what (src/shards/shard.ts): each
 * per-event or per-part key by exactly one shard, the site-wide outputs by
 * shard 1, the same on every machine.
 */

const keys = Array.from({ length: 2_000 }, (_, i) =>
  i % 10 === 0
    ? searchPartShardKey(`2026-${String((i % 12) + 1).padStart(2, "0")}-${i}`)
    : eventShardKey({ calendarId: `calendar-${i % 7}`, id: `event-${i}` }),
);

describe("shard shares", () => {
  it("should read I/N and refuse anything else with the option's name", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard(" 1/1 ")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/2", "3/2", "2", "a/b", "1/0", "-1/2", "1/2/3"]) {
      expect(() => parseShard(bad), bad).toThrow(/--shard: expected I\/N/);
    }
  });

  for (const count of [1, 2, 3, 4, 6]) {
    it(`should give each key to exactly one of ${count} shard${count > 1 ? "s" : ""}, in fair shares`, () => {
      const shards = Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));
      const shares = shards.map((shard) => keys.filter((key) => owns(shard, key)).length);
      for (const key of keys) {
        expect(shards.filter((shard) => owns(shard, key))).toHaveLength(1);
      }
      // Site-wide outputs: shard 1's alone.
      expect(shards.map((shard) => owns(shard, null))).toEqual(shards.map((s) => s.index === 1));
      // With three shards or more, shard 1 renders the site-wide outputs only.
      const eventShares = count >= 3 ? shares.slice(1) : shares;
      if (count >= 3) expect(shares[0]).toBe(0);
      const fair = keys.length / eventShares.length;
      for (const share of eventShares) {
        expect(share).toBeGreaterThan(fair * 0.85);
        expect(share).toBeLessThan(fair * 1.15);
      }
    });
  }

  it("should give a key the same shard in another process (a fixed hash, not a seeded one)", () => {
    const sample = keys.slice(0, 200);
    const shardOf = (key: string) => [1, 2, 3, 4].find((index) => owns({ index, count: 4 }, key));
    const script = `
      import { owns } from "./src/shards/shard.ts";
      const keys = JSON.parse(process.argv[1]);
      console.log(JSON.stringify(keys.map((key) => [1, 2, 3, 4].find((index) => owns({ index, count: 4 }, key)))));
    `;
    const other = execFileSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script, JSON.stringify(sample)],
      { cwd: join(import.meta.dirname, "../.."), encoding: "utf8" },
    );
    expect(JSON.parse(other)).toEqual(sample.map(shardOf));
  });
});
