import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type PublishedState, parsePublishedState } from "../changes/published-state.ts";
import { PublishError } from "../errors.ts";
import type { BuildShape } from "./build-shape.ts";
import type { Shard } from "./shard.ts";
import { DATA_PARTS, type ShardData } from "./shard-data.ts";

/**
 * What a shard's output folder says of itself, in `.shard/shard.json` beside
 * its files (never published: `npm run merge-shards` reads it and leaves it
 * out). Merging checks with it that the shards are the N shares of one
 * build, built alike (settings, code, target) from the same data, that each
 * file is still the one the shard wrote, and publishes shard 1's state of
 * the events.
 */

/** The folder in a shard's output that holds its record. */
export const SHARD_FOLDER = ".shard";
const RECORD_FILE = "shard.json";
const RECORD_VERSION = 2;

export interface ShardRecord {
  readonly shard: Shard;
  readonly siteUrl: string;
  /** The settings that shaped its output (the clock among them), the code, the target. */
  readonly build: BuildShape;
  /** The site's data as the shard rendered it, item by item. */
  readonly data: ShardData;
  /** What the host limits count, for this shard's share (src/publish/host-limits.ts). */
  readonly counts: {
    readonly eventIcs: number;
    readonly eventEmbeds: number;
    readonly structuredDataCards: number;
  };
  readonly warnings: readonly string[];
  /** Every file of the shard's share, as the shard wrote it. */
  readonly files: readonly ShardFile[];
  /** Shard 1's: what the merged site tells the next build about its events (src/changes). */
  readonly state: PublishedState | null;
}

/**
 * A file of a shard's share: its site path, content hash and size
 * (src/publish/output-files.ts), and its signature on disk when the record
 * was written (src/render/published-files.ts), null if none was taken.
 */
export type ShardFile = readonly [
  path: string,
  hash: string,
  bytes: number,
  signature: number | null,
];

export async function writeShardRecord(folder: string, record: ShardRecord): Promise<void> {
  await mkdir(join(folder, SHARD_FOLDER), { recursive: true });
  await writeFile(
    join(folder, SHARD_FOLDER, RECORD_FILE),
    `${JSON.stringify({ version: RECORD_VERSION, ...record })}\n`,
  );
}

/** Reads a shard's record; a PublishError naming the folder when it is not a shard's output. */
export async function readShardRecord(folder: string): Promise<ShardRecord> {
  const path = join(folder, SHARD_FOLDER, RECORD_FILE);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new PublishError(
      `${folder} is not the output of \`npm run build -- --shard I/N\` (${path}: ${(error as Error).message}).`,
    );
  }
  const shard = json.shard as Shard | undefined;
  if (
    json.version !== RECORD_VERSION ||
    !Number.isInteger(shard?.index) ||
    !Number.isInteger(shard?.count) ||
    typeof json.siteUrl !== "string" ||
    !isBuildShape(json.build) ||
    !isShardData(json.data) ||
    !Array.isArray(json.files) ||
    !json.files.every(isShardFile)
  ) {
    throw new PublishError(
      `${path} is not a shard record of this version of the publisher: build the shard again.`,
    );
  }
  let state: PublishedState | null = null;
  if (json.state !== null && json.state !== undefined) {
    const parsed = parsePublishedState(json.state);
    if ("problem" in parsed)
      throw new PublishError(`${path}: its state is unusable: ${parsed.problem}.`);
    state = parsed.state;
  }
  return { ...(json as unknown as ShardRecord), state };
}

function isBuildShape(value: unknown): value is BuildShape {
  const shape = value as BuildShape | undefined;
  return (
    typeof shape?.digest === "string" &&
    typeof shape.code === "string" &&
    Array.isArray(shape.settings) &&
    shape.settings.every(
      (setting) =>
        Array.isArray(setting) &&
        setting.length === 2 &&
        setting.every((part) => typeof part === "string"),
    )
  );
}

function isShardData(value: unknown): value is ShardData {
  const data = value as ShardData | undefined;
  return (
    typeof data?.digest === "string" &&
    DATA_PARTS.every(
      (part) =>
        Array.isArray(data[part]) &&
        data[part].every(
          (item) =>
            Array.isArray(item) &&
            item.length === 2 &&
            item.every((text) => typeof text === "string"),
        ),
    )
  );
}

function isShardFile(value: unknown): value is ShardFile {
  if (!Array.isArray(value) || value.length !== 4) return false;
  const [path, hash, bytes, signature] = value as unknown[];
  return (
    typeof path === "string" &&
    typeof hash === "string" &&
    Number.isSafeInteger(bytes) &&
    (signature === null || Number.isSafeInteger(signature))
  );
}
