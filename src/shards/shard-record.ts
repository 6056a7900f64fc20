import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type PublishedState, parsePublishedState } from "../changes/published-state.ts";
import { PublishError } from "../errors.ts";
import type { SiteData } from "../site/load.ts";
import type { Shard } from "./shard.ts";

/**
 * What a shard's output folder says of itself, in `.shard/shard.json` beside
 * its files (never published: `npm run merge-shards` reads it and leaves it
 * out). Merging checks with it that the shards are the N shares of one
 * build of the same data, and publishes shard 1's state of the events.
 */

/** The folder in a shard's output that holds its record. */
export const SHARD_FOLDER = ".shard";
const RECORD_FILE = "shard.json";
const RECORD_VERSION = 1;

export interface ShardRecord {
  readonly shard: Shard;
  readonly siteUrl: string;
  /** The build's clock (SITE_NOW or the time it started). */
  readonly now: string;
  /** A hash of the site's data as the shard rendered it (siteDataDigest). */
  readonly data: string;
  /** What the host limits count, for this shard's share (src/publish/host-limits.ts). */
  readonly counts: {
    readonly eventIcs: number;
    readonly eventEmbeds: number;
    readonly structuredDataCards: number;
  };
  readonly warnings: readonly string[];
  /** Every file of the shard's share: [site path, content hash, bytes] (src/publish/output-files.ts). */
  readonly files: readonly (readonly [string, string, number])[];
  /** Shard 1's: what the merged site tells the next build about its events (src/changes). */
  readonly state: PublishedState | null;
}

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
    typeof json.data !== "string" ||
    typeof json.siteUrl !== "string" ||
    typeof json.now !== "string" ||
    !Array.isArray(json.files)
  ) {
    throw new PublishError(`${path} is not a shard record of this version.`);
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

/**
 * A hash of what every shard must agree on: the calendars and the events as
 * published (changes applied), event by event so that no string of the whole
 * site is made. Shards built from different data (the portal changed between
 * their fetches, another previous state) would merge into a site of two
 * moments; merging refuses them instead.
 */
export function siteDataDigest(data: Pick<SiteData, "calendars" | "events" | "removed">): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(data.calendars));
  for (const event of data.events) hash.update(`\n${JSON.stringify(event)}`);
  hash.update("\nremoved");
  for (const event of data.removed) hash.update(`\n${JSON.stringify(event)}`);
  return hash.digest("hex").slice(0, 32);
}
