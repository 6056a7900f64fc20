import { constants, copyFileSync, linkSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { PublishError } from "../errors.ts";
import { type KnownFile, keepPublished, type PublishedFiles } from "../render/published-files.ts";
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
 *
 * The shards' records list their files with their hashes, so nothing is
 * read again: a file with the bytes of the last publish's is kept as
 * published (src/render/published-files.ts), as a single build keeps it.
 */
export interface MergedShards {
  readonly records: readonly ShardRecord[];
  /** Every merged file, hashed (for the publish step's hashOutput). */
  readonly known: ReadonlyMap<string, KnownFile>;
}

export async function mergeShards(
  folders: readonly string[],
  into: string,
  options: {
    /** SITE_URL of this merge: the shards must have been built for it. */
    readonly siteUrl: string;
    /** The last publish's files, kept where unchanged. */
    readonly published: PublishedFiles | null;
  },
): Promise<MergedShards> {
  const { published } = options;
  if (folders.length === 0) {
    throw new PublishError("merge-shards: name the shards' output folders.");
  }
  const records = await Promise.all(folders.map((folder) => readShardRecord(folder)));
  checkShares(records, folders);
  const { siteUrl } = records[0] as ShardRecord;
  if (siteUrl !== options.siteUrl) {
    throw new PublishError(
      `merge-shards: the shards were built for SITE_URL ${siteUrl}, this merge runs with ${options.siteUrl}; run it with the shards' settings.`,
    );
  }
  const known = new Map<string, KnownFile>();
  const folderMade = new Set<string>();
  records.forEach((record, i) => {
    const from = folders[i] as string;
    for (const [path, hash, bytes] of record.files) {
      if (known.has(path)) {
        throw new PublishError(
          `merge-shards: two shards wrote ${path}; the shards' outputs must be disjoint.`,
        );
      }
      if (path.split("/").includes("..") || path.startsWith(`${SHARD_FOLDER}/`)) {
        throw new PublishError(`merge-shards: ${from} lists a file outside its site: ${path}.`);
      }
      const target = join(into, path);
      const folder = dirname(target);
      if (!folderMade.has(folder)) {
        mkdirSync(folder, { recursive: true });
        folderMade.add(folder);
      }
      const file: KnownFile = { hash, bytes };
      const kept = keepPublished(published, path, file, target);
      if (!kept) linkOrCopy(join(from, path), target);
      known.set(path, kept ? { ...file, kept } : file);
    }
  });
  return { records, known };
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

/** A hard link where the file system allows, else a copy. */
function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw error;
    // Another file system, or one without hard links: a copy.
    copyFileSync(source, target, constants.COPYFILE_EXCL);
  }
}
