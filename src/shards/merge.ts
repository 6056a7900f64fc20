import { constants, copyFileSync, linkSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { PublishError } from "../errors.ts";
import {
  checkFile,
  type KnownFile,
  keepPublished,
  knownFile,
  type PublishedFiles,
} from "../render/published-files.ts";
import { describeShard } from "./shard.ts";
import { firstDataDifference } from "./shard-data.ts";
import { readShardRecord, SHARD_FOLDER, type ShardRecord } from "./shard-record.ts";

/**
 * Puts the outputs of a split build's shards together into one folder (the
 * staging folder of `npm run merge-shards`), after checking that they are
 * the N shares of one build: the same N, each share once, built alike (every
 * setting that shapes the output, the code and `--target`:
 * src/shards/build-shape.ts) from the same data (src/shards/shard-data.ts),
 * for this merge's SITE_URL, and every file still the one its shard wrote.
 * Files are hard-linked where the file system allows (copied otherwise), so
 * the shards' folders stay as they were and a failed merge can be run again.
 * Two shards with the same file is an error: the shares are disjoint by
 * construction (src/shards/shard.ts). Each refusal is one line naming what
 * differs and where; nothing is linked before every check has passed.
 *
 * The shards' records list their files with their hashes, sizes and
 * signatures on disk, so a file is read again only where its stat changed
 * since its shard wrote it (a copy from another machine, an edit): the
 * hashes the merge publishes, and the next build trusts, are those of the
 * bytes it links. A file with the bytes of the last publish's is kept as
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
  checkBuilds(records, folders);
  checkData(records, folders);
  const { siteUrl } = records[0] as ShardRecord;
  if (siteUrl !== options.siteUrl) {
    throw new PublishError(
      `merge-shards: the shards were built for SITE_URL ${siteUrl}, this merge runs with ${options.siteUrl}; run it with the shards' settings.`,
    );
  }
  checkFiles(records, folders);
  const known = new Map<string, KnownFile>();
  const folderMade = new Set<string>();
  records.forEach((record, i) => {
    const from = folders[i] as string;
    for (const [path, hash, bytes] of record.files) {
      // A file kept as published stays there: the publish step moves in the others only.
      const kept = keepPublished(published, path, { hash, bytes });
      if (!kept) {
        const target = join(into, path);
        const folder = dirname(target);
        if (!folderMade.has(folder)) {
          mkdirSync(folder, { recursive: true });
          folderMade.add(folder);
        }
        linkOrCopy(join(from, path), target);
      }
      known.set(path, knownFile(hash, bytes, undefined, kept));
    }
  });
  return { records, known };
}

const TOGETHER =
  "the shards must be built together, from the same data with the same settings and code";

function checkShares(records: readonly ShardRecord[], folders: readonly string[]): void {
  const [first] = records as [ShardRecord];
  const count = first.shard.count;
  const seen = new Map<number, string>();
  records.forEach((record, i) => {
    const folder = folders[i] as string;
    if (record.shard.count !== count) {
      throw new PublishError(
        `merge-shards: ${folder} (shard ${describeShard(record.shard)}) is one of ${record.shard.count} shards, ${folders[0]} one of ${count}: ${TOGETHER}.`,
      );
    }
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

/**
 * Every shard built alike with the first: the same settings that shape the
 * output, the same code and `--target`. The first that differs is named with
 * both values and folders ("SITE_LANG: nl in …/s2, en-GB in …/s1").
 */
function checkBuilds(records: readonly ShardRecord[], folders: readonly string[]): void {
  const [first] = records as [ShardRecord];
  records.forEach((record, i) => {
    if (record.build.digest === first.build.digest) return;
    const folder = folders[i] as string;
    const differs = (what: string, value: string, firstValue: string) =>
      new PublishError(
        `merge-shards: ${what}: ${value} in ${folder}, ${firstValue} in ${folders[0]}; ${TOGETHER}.`,
      );
    if (record.build.code !== first.build.code) {
      throw differs("the code (src, templates, packages)", record.build.code, first.build.code);
    }
    const values = new Map(record.build.settings);
    const firstValues = new Map(first.build.settings);
    for (const name of new Set([...firstValues.keys(), ...values.keys()])) {
      const value = values.get(name) ?? "(not recorded)";
      const firstValue = firstValues.get(name) ?? "(not recorded)";
      if (value !== firstValue) throw differs(name, value, firstValue);
    }
    throw differs("the build's settings", record.build.digest, first.build.digest);
  });
}

/** Every shard rendered the first's data; the first item that differs is named. */
function checkData(records: readonly ShardRecord[], folders: readonly string[]): void {
  const [first] = records as [ShardRecord];
  records.forEach((record, i) => {
    const difference = firstDataDifference(record.data, first.data);
    if (!difference) return;
    const folder = folders[i] as string;
    const where =
      difference.in === "both"
        ? `another version of it in ${folder} than in ${folders[0]}`
        : `only in ${difference.in === "one" ? folder : folders[0]}`;
    const part = difference.part === "removed" ? "removed events" : difference.part;
    throw new PublishError(
      `merge-shards: the shards' ${part} differ, first at ${difference.id} (${where}): the portal changed between their fetches, or they compared with different published sites; ${TOGETHER}.`,
    );
  });
}

/**
 * Every file each record lists, still there with the size and bytes its
 * shard wrote (checkFile: by its signature, else read and hashed again),
 * and inside the site; no path listed by two shards.
 */
function checkFiles(records: readonly ShardRecord[], folders: readonly string[]): void {
  const owner = new Map<string, string>();
  records.forEach((record, i) => {
    const from = folders[i] as string;
    for (const [path, hash, bytes, signature] of record.files) {
      if (path.split("/").includes("..") || path.startsWith(`${SHARD_FOLDER}/`)) {
        throw new PublishError(`merge-shards: ${from} lists a file outside its site: ${path}.`);
      }
      const other = owner.get(path);
      if (other !== undefined) {
        throw new PublishError(
          `merge-shards: ${other} and ${from} both wrote ${path}; the shards' outputs must be disjoint.`,
        );
      }
      owner.set(path, from);
      const check = checkFile(join(from, path), { hash, bytes }, signature ?? undefined);
      if (check === "missing") {
        throw new PublishError(
          `merge-shards: ${from} has no ${path}, which its record lists: copy the shard's whole folder again, or build it again.`,
        );
      }
      if (check !== "same") {
        throw new PublishError(
          `merge-shards: ${path} in ${from} is not the file the shard wrote (its ${check === "resized" ? "size" : "bytes"} differ from its record): copy the shard's whole folder again, or build it again.`,
        );
      }
    }
  });
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
