import { constants, copyFileSync, linkSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PublishError } from "../errors.ts";
import { describeShard } from "./shard.ts";
import { readShardRecord, SHARD_FOLDER, type ShardRecord } from "./shard-record.ts";

/**
 * Puts the outputs of a split build's shards together into one folder (the
 * staging folder of `npm run merge-shards`), after checking that they are
 * the N shares of one build: the same N, each share once, the same SITE_URL,
 * clock and data. Files are hard-linked where the file system allows
 * (copied otherwise), so the shards' folders stay as they were and a failed
 * merge can be run again. Two shards with the same file is an error: the
 * shares are disjoint by construction (src/shards/shard.ts).
 */
export interface MergedShards {
  readonly records: readonly ShardRecord[];
  readonly files: number;
}

export async function mergeShards(folders: readonly string[], into: string): Promise<MergedShards> {
  if (folders.length === 0)
    throw new PublishError("merge-shards: name the shards' output folders.");
  const records = await Promise.all(folders.map((folder) => readShardRecord(folder)));
  checkShares(records, folders);
  let files = 0;
  for (const folder of folders) files += linkTree(folder, into, "");
  return { records, files };
}

function checkShares(records: readonly ShardRecord[], folders: readonly string[]): void {
  const [first] = records as [ShardRecord];
  const count = first.shard.count;
  const seen = new Map<number, string>();
  records.forEach((record, i) => {
    const folder = folders[i] as string;
    const differs = (what: string, a: string, b: string) =>
      new PublishError(
        `merge-shards: ${folder} (shard ${describeShard(record.shard)}) has ${what} ${b}, ${folders[0]} ${a}: the shards must be built together, from the same data with the same settings.`,
      );
    if (record.shard.count !== count) {
      throw differs("shard count", String(count), String(record.shard.count));
    }
    if (record.siteUrl !== first.siteUrl) throw differs("SITE_URL", first.siteUrl, record.siteUrl);
    if (record.now !== first.now) throw differs("clock (SITE_NOW)", first.now, record.now);
    if (record.data !== first.data) throw differs("data", first.data, record.data);
    const twice = seen.get(record.shard.index);
    if (twice) {
      throw new PublishError(
        `merge-shards: ${twice} and ${folder} are both shard ${describeShard(record.shard)}.`,
      );
    }
    seen.set(record.shard.index, folder);
  });
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter(
    (index) => !seen.has(index),
  );
  if (missing.length > 0) {
    throw new PublishError(
      `merge-shards: shard ${missing.map((index) => `${index}/${count}`).join(", ")} missing; all ${count} are needed.`,
    );
  }
}

/** Links (or copies) every file of `from`/`path` into `into`, leaving out the shard's record. */
function linkTree(from: string, into: string, path: string): number {
  let files = 0;
  mkdirSync(join(into, path), { recursive: true });
  for (const entry of readdirSync(join(from, path), { withFileTypes: true })) {
    if (!path && entry.name === SHARD_FOLDER) continue;
    const child = path ? `${path}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      files += linkTree(from, into, child);
      continue;
    }
    const source = join(from, child);
    const target = join(into, child);
    try {
      linkSync(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") {
        throw new PublishError(
          `merge-shards: two shards wrote ${child}; the shards' outputs must be disjoint.`,
        );
      }
      // Another file system, or one without hard links: a copy.
      copyFileSync(source, target, constants.COPYFILE_EXCL);
    }
    files++;
  }
  return files;
}
