import { createHash } from "node:crypto";
import { readFileSync, rmSync, type Stats, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DateTime } from "luxon";
import type { PortalLists } from "../api/list-recorder.ts";
import { stateFileHash } from "../changes/previous-state.ts";
import { publishedStateFolder, publishedStatePath } from "../changes/state-location.ts";
import { codeFingerprint } from "../code-fingerprint.ts";
import type { BuildConfig } from "../config/build-config.ts";
import type { MediaFile } from "../media/localize-images.ts";
import { count } from "../metrics.ts";
import { eventDigest } from "../model/event-digest.ts";
import type { PortalSnapshot } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { MapView } from "../render/map-view.ts";
import { contentHash, fileSignature } from "../render/published-files.ts";
import { snapshotUpdatedAt } from "../site/data-updated.ts";
import type { SourceOutcome } from "../sources/load-sources.ts";
import { type BuildWarnings, buildWarningsPath, writeBuildWarnings } from "./build-warnings.ts";
import {
  type FileChanges,
  type FileList,
  fileListPath,
  isPage,
  readFileList,
  writeFileList,
} from "./output-files.ts";
import { replaceFile } from "./replace-file.ts";

/**
 * A build that finds nothing to render (docs/performance.md, "A build with
 * nothing to do"). Every publish of `npm run build` records a digest of
 * everything its site was rendered from but the clock (the code, the
 * settings, the portal's data with its images, the lists as read), the
 * hash of the published state it kept (the changes are worked out against
 * it) and the next moment its date-relative outputs change
 * (src/rebuild/next-change.ts).
 * A build that finds the same digest, at a clock between that publish's and
 * that moment, would render every file as published: it keeps them all and
 * writes manifest.json alone, the one file that says when a build ran
 * (feedsChanged and pagesChanged empty: no ping announces anything).
 *
 * The output folder must still be what the publish left: every file on the
 * list is checked by its stat against the signature taken when it was
 * published (a folder restored whole as a copy, by its bytes: intactFiles),
 * so a file removed, edited or touched since sends the build down the whole
 * path, which puts it right.
 *
 * The moment is the one the change check already trusts to ask for a build
 * at all (src/rebuild/check-portal.ts); test/integration/unchanged-build.test.ts
 * steps the clock to just before each of a site's next moments and compares
 * the kept site with one built from scratch there.
 */

/** Beside the published state and file list (src/changes/state-location.ts). */
export const INPUTS_RECORD_FILE = "build-inputs.json";
const RECORD_VERSION = 1;

/** What a publish records for the next build, beside its file list. */
interface InputsRecord {
  readonly version: typeof RECORD_VERSION;
  /** buildInputsDigest of the build that published. */
  readonly inputs: string;
  /** Its clock (ms). */
  readonly builtAt: number;
  /** The first moment after it at which a date-relative output changes (ms); null: none known. */
  readonly nextChangeAt: number | null;
  /** The content hash of the manifest.json it published. */
  readonly manifest: string;
  /**
   * The content hash of the published state it kept (src/changes), which
   * the next build's changes would be worked out against: a state replaced
   * or damaged since sends the build the whole way. Its bytes, not its
   * signature: a cache folder restored as a copy keeps them.
   */
  readonly state: string;
  /**
   * The code's fingerprint (src/code-fingerprint.ts) its files were
   * rendered with: a build under other code renders every file again
   * (publishedUnderOtherCode). Absent from the records written before it.
   */
  readonly code?: string;
}

export interface BuildInputsParts {
  readonly config: BuildConfig;
  /** The portal's data with the events' images in the site (src/site/load.ts, localizeSiteImages). */
  readonly snapshot: PortalSnapshot;
  readonly media: readonly MediaFile[];
  readonly lists: PortalLists | null;
  readonly sources: readonly SourceOutcome[] | null;
  readonly merged: readonly string[];
}

/**
 * A digest of everything the site is rendered from, the clock aside. The
 * snapshot's fetch time only when the data carries no modification time
 * (the feeds then date themselves by it: src/outputs/feed-scopes.ts). No
 * token is part of it, nor of anything written here.
 */
export function buildInputsDigest(parts: BuildInputsParts): string {
  const digest = createHash("sha256");
  const add = (value: unknown) => digest.update(JSON.stringify(value) ?? "null").update("\n");
  add([codeFingerprint(), process.versions.node, process.versions.icu]);
  digest.update(JSON.stringify(parts.config, withoutClockOrToken)).update("\n");
  // Its `source` (the API's address) is in the settings already, and no output shows it: left
  // out, the demo's portal, on another port each build, does not make every build look new.
  const { events, fetchedAt, source: _address, ...snapshot } = parts.snapshot;
  add(snapshot);
  add(snapshotUpdatedAt(parts.snapshot) === null ? fetchedAt : null);
  // Each event by its digest (the whole event, as every output names it): the
  // normalized events kept between builds bring theirs back, so an unchanged
  // event is not written out and hashed again here (docs/performance.md, What
  // changed, item 78).
  for (const event of events) digest.update(eventDigest(event)).update("\n");
  add(parts.media);
  add(parts.lists);
  add(
    parts.sources?.map((source) => [
      source.id,
      source.stale ? source.fetchedAt : null,
      source.events,
      source.read,
    ]) ?? null,
  );
  add(parts.merged);
  return digest.digest("base64url");
}

/**
 * The settings as the digest takes them: the build's clock and the portals'
 * tokens left out. The clock is known by what it is before its toJSON (a
 * replacer is given the ISO text): `this` holds it.
 */
function withoutClockOrToken(this: unknown, key: string, value: unknown): unknown {
  const holder = this as Record<string, unknown>;
  if (key === "now" && DateTime.isDateTime(holder[key])) return undefined;
  if (key === "token") return undefined;
  return value;
}

/** A site found as its last publish left it, with nothing to render. */
export interface UnchangedSite {
  readonly kind: "unchanged";
  readonly record: InputsRecord;
  /** The last publish's file list. */
  readonly list: FileList;
  /** Its files' sizes together, as found. */
  readonly bytes: number;
  /** The new signatures of files found by their bytes (a folder restored as a copy). */
  readonly resigned: ReadonlyMap<string, number>;
  /** The last publish's warnings, which the same inputs give again. */
  readonly warnings: BuildWarnings;
}

export interface FindUnchangedOptions {
  readonly config: Pick<BuildConfig, "site" | "cacheDir">;
  readonly output: string;
  /** buildInputsDigest of this build. */
  readonly inputs: string;
}

/**
 * The output folder as the last publish left it, when this build's inputs
 * and clock would render it again; else null (the build renders).
 */
export function findUnchanged(options: FindUnchangedOptions): UnchangedSite | null {
  const { config, output } = options;
  const folder = publishedStateFolder(config.cacheDir, output, config.site.url);
  const record = readRecord(join(folder, INPUTS_RECORD_FILE));
  const now = config.site.now.toMillis();
  if (
    !record ||
    record.inputs !== options.inputs ||
    record.nextChangeAt === null ||
    now < record.builtAt ||
    now >= record.nextChangeAt
  ) {
    return null;
  }
  if (stateHash(config, output) !== record.state) return null;
  const warnings = readWarnings(buildWarningsPath(config.cacheDir, output, config.site.url));
  const list = readFileList(fileListPath(config, output));
  const manifest = paths.apiManifest().slice(1);
  if (!warnings || !list || list.hashes.get(manifest) !== record.manifest) return null;
  const found = intactFiles(output, list);
  return found && { kind: "unchanged", record, list, ...found, warnings };
}

/**
 * Whether every file of the list is in `output` as published, and their
 * sizes together. Each file by its stat: where every signature is the one
 * recorded, nothing is read. A folder restored whole as a copy (Netlify's
 * and GitHub Actions' caches: every file a new inode) has no signature
 * left: then each file is read once and compared with its hash, and its
 * new signature returned, to be recorded. Where only some signatures moved
 * (files edited, or touched), the build goes the whole way, which reads
 * those again: nothing is read twice.
 */
function intactFiles(
  output: string,
  list: FileList,
): { readonly bytes: number; readonly resigned: ReadonlyMap<string, number> } | null {
  let bytes = 0;
  const moved = new Map<string, number>();
  for (const path of list.hashes.keys()) {
    count("files.statted");
    let stats: Stats;
    try {
      stats = statSync(join(output, path));
    } catch {
      return null;
    }
    if (!stats.isFile()) return null;
    bytes += stats.size;
    const signature = fileSignature(stats);
    if (list.signatures.get(path) !== signature) moved.set(path, signature);
  }
  if (moved.size > 0 && moved.size < list.hashes.size) return null;
  for (const path of moved.keys()) {
    count("files.rehashed");
    if (contentHash(readFileSync(join(output, path))) !== list.hashes.get(path)) return null;
  }
  return { bytes, resigned: moved };
}

export interface KeepUnchangedInput {
  readonly config: Pick<BuildConfig, "site" | "cacheDir">;
  readonly output: string;
  readonly unchanged: UnchangedSite;
  /** When this build's data was fetched (manifest.json's snapshotFetchedAt). */
  readonly fetchedAt: string;
}

/** What keepUnchanged published. */
export interface KeptOutcome {
  readonly files: number;
  readonly bytes: number;
  readonly pages: number;
  readonly changes: FileChanges;
  readonly manifest: Readonly<Record<string, unknown>>;
}

/**
 * Publishes the kept site: its manifest.json written again (this build's
 * time, no feed or page changed), then the file list, the warnings and the
 * record as a publish leaves them.
 */
export async function keepUnchanged(input: KeepUnchangedInput): Promise<KeptOutcome> {
  const { config, output, unchanged } = input;
  const { site } = config;
  const sitePath = paths.apiManifest().slice(1);
  const target = join(output, sitePath);
  const bytesBefore = await readFile(target);
  const published = JSON.parse(bytesBefore.toString("utf8")) as Record<string, unknown>;
  // The keys in their places: the bytes a build that renders everything writes.
  const manifest: Record<string, unknown> = {
    ...published,
    generatedAt: site.now.toUTC().toISO() ?? "",
    snapshotFetchedAt: input.fetchedAt,
    ...("feedsChanged" in published ? { feedsChanged: [] } : {}),
    ...("pagesChanged" in published ? { pagesChanged: [], pagesChangedCount: 0 } : {}),
  };
  const content = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const hash = contentHash(content);
  const before = unchanged.list.hashes.get(sitePath);
  if (hash !== before) await replaceFile(target, content);
  const bytes = unchanged.bytes - bytesBefore.byteLength + content.byteLength;

  // The list's hashes with the manifest's, read through rather than copied (630,000 files).
  const hashes = new MapView(
    unchanged.list.hashes,
    (listed, path) => (path === sitePath ? hash : listed),
    { everyKey: true },
  );
  // The list written again only for what moved: the manifest's bytes, a restored copy's signatures.
  if (hash !== before || unchanged.resigned.size > 0) {
    const { signatures } = unchanged.list;
    const manifestSignature = fileSignature(statSync(target));
    writeFileList(
      fileListPath(config, output),
      hashes,
      unchanged.list.inputs,
      {
        get: (path) =>
          path === sitePath
            ? manifestSignature
            : (unchanged.resigned.get(path) ?? signatures.get(path)),
      },
      unchanged.list,
    );
  }
  const folder = publishedStateFolder(config.cacheDir, output, site.url);
  await writeBuildWarnings(buildWarningsPath(config.cacheDir, output, site.url), {
    ...unchanged.warnings,
    now: site.now.toUTC().toISO() ?? "",
  });
  await keepInputsRecord(folder, {
    ...unchanged.record,
    builtAt: site.now.toMillis(),
    manifest: hash,
  });
  count("files.kept", hashes.size - (hash === before ? 0 : 1));
  count("files.written", hash === before ? 0 : 1);
  let pages = 0;
  for (const path of hashes.keys()) if (isPage(path)) pages++;
  const changed = hash === before ? 0 : 1;
  return {
    files: hashes.size,
    bytes,
    pages,
    changes: { added: 0, changed, removed: 0, unchanged: hashes.size - changed },
    manifest,
  };
}

/** What a publish records for the next build to find nothing changed; null: nothing (the record is removed). */
export interface PublishedInputs {
  readonly inputs: string;
  readonly builtAt: number;
  readonly nextChangeAt: number | null;
}

/**
 * After a publish: records its inputs, or removes the last record when this
 * publish has none (a split build's merge, a publish whose state could not be
 * kept), so that no later build takes the folder for another publish's.
 */
export async function recordPublishedInputs(
  config: Pick<BuildConfig, "site" | "cacheDir">,
  output: string,
  inputs: PublishedInputs | null,
  kept: {
    /** The manifest's hash, as published. */
    readonly manifest: string | undefined;
    /** The published state's (stateFileHash), as this publish wrote it; null: none written. */
    readonly state: string | null;
  },
): Promise<void> {
  const folder = publishedStateFolder(config.cacheDir, output, config.site.url);
  const { manifest: manifestHash, state } = kept;
  if (!inputs || !manifestHash || state === null) {
    rmSync(join(folder, INPUTS_RECORD_FILE), { force: true });
    return;
  }
  await keepInputsRecord(folder, {
    version: RECORD_VERSION,
    ...inputs,
    manifest: manifestHash,
    state,
    code: codeFingerprint(),
  });
}

/**
 * Whether the last publish was rendered under other code than this build's
 * (an upgrade, or an edit of the code or a template): every output's inputs
 * carry the code's fingerprint (src/render/file-writer.ts), so this build
 * renders every file again, as a first build does. False when unknown.
 */
export function publishedUnderOtherCode(
  config: Pick<BuildConfig, "site" | "cacheDir">,
  output: string,
): boolean {
  const folder = publishedStateFolder(config.cacheDir, output, config.site.url);
  const code = readRecord(join(folder, INPUTS_RECORD_FILE))?.code;
  return code !== undefined && code !== codeFingerprint();
}

/** The published state's content hash as it is now; null when there is none. */
function stateHash(config: Pick<BuildConfig, "site" | "cacheDir">, output: string): string | null {
  try {
    return stateFileHash(
      readFileSync(publishedStatePath(config.cacheDir, output, config.site.url)),
    );
  } catch {
    return null;
  }
}

async function keepInputsRecord(folder: string, record: InputsRecord): Promise<void> {
  await replaceFile(join(folder, INPUTS_RECORD_FILE), `${JSON.stringify(record)}\n`);
}

function readRecord(path: string): InputsRecord | null {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<InputsRecord>;
    const ok =
      value.version === RECORD_VERSION &&
      typeof value.inputs === "string" &&
      typeof value.builtAt === "number" &&
      (value.nextChangeAt === null || typeof value.nextChangeAt === "number") &&
      typeof value.manifest === "string" &&
      typeof value.state === "string" &&
      (value.code === undefined || typeof value.code === "string");
    return ok ? (value as InputsRecord) : null;
  } catch {
    return null;
  }
}

function readWarnings(path: string): BuildWarnings | null {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<BuildWarnings>;
    const ok =
      value.version === 1 &&
      Array.isArray(value.warnings) &&
      value.warnings.every((warning) => typeof warning === "string");
    return ok ? (value as BuildWarnings) : null;
  } catch {
    return null;
  }
}
