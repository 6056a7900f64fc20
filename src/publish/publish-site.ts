import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { savePublishedState } from "../changes/previous-state.ts";
import type { PublishedState } from "../changes/published-state.ts";
import type { BuildConfig } from "../config/build-config.ts";
import { PublishError } from "../errors.ts";
import { count, timed, timedAsync } from "../metrics.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import { paths } from "../model/url-scheme.ts";
import { type KnownFiles, siteFile } from "../render/published-files.ts";
import { checkSignaturesAside } from "../render/signatures-aside.ts";
import { changedPages } from "./changed-pages.ts";
import { recordChangedPages } from "./manifest-pages.ts";
import {
  compareFiles,
  type FileChanges,
  type FileSignatures,
  fileListPath,
  fileSignatures,
  hashOutput,
  type OutputFiles,
  type PublishedFiles,
  readFileList,
  writeFileList,
} from "./output-files.ts";
import { loadPreviousManifest } from "./previous-manifest.ts";
import { publishAtomically, publishInPlace } from "./publish.ts";
import { checkShrink, type ManifestCounts, parseManifestCounts } from "./shrink-guard.ts";
import { type PublishedInputs, recordPublishedInputs } from "./unchanged-build.ts";

/**
 * The publish step, after a site is rendered into its staging folder (by
 * `npm run build`, or put together from shards by `npm run merge-shards`):
 * hash every file, keeping the published copy of each unchanged one; check
 * the new manifest against the published one (the shrink guard); move the
 * new and changed files in (or swap the whole staging folder in, for a
 * first build); then keep what the next build compares with (the published
 * state and the file list). Any failure before publishing leaves the
 * published site as it was (docs/deploy.md, "Safe builds").
 */

export interface PublishSiteInput {
  readonly staging: string;
  readonly output: string;
  readonly config: Pick<BuildConfig, "site" | "cacheDir" | "publish">;
  /** What this publish tells the next build about its events (src/changes); null: nothing. */
  readonly state: PublishedState | null;
  /** The last publish's files, as `lastPublishedFiles` read them before rendering. */
  readonly published: PublishedFiles | null;
  /** Files hashed as they were written (src/render/file-writer.ts): not read again. */
  readonly known?: KnownFiles;
  /**
   * What the site was rendered from, for the next build to find nothing
   * changed (src/publish/unchanged-build.ts); omitted (a split build's
   * merge): the last publish's record is removed.
   */
  readonly inputs?: PublishedInputs;
}

export interface PublishOutcome {
  /** Every file, hashed; `kept`: those that are the published copies, not written again. */
  readonly files: OutputFiles & { readonly kept: number };
  /** Against the last publish; null when there was nothing to compare with. */
  readonly changes: FileChanges | null;
  readonly manifest: ManifestCounts;
  readonly warnings: readonly string[];
}

/**
 * The files the last publish into `output` left there, from the list it
 * kept; null when there is no list or no folder (a first build, another
 * machine): the build then writes every file. `reads`: the list as a
 * build started ahead read it, while unchanged (src/ready).
 */
export function lastPublishedFiles(
  config: PublishSiteInput["config"],
  output: string,
  reads?: KeptReads,
): PublishedFiles | null {
  if (!existsSync(output)) return null;
  const path = fileListPath(config, output);
  const list = reads ? reads.kept(path, () => readFileList(path)) : readFileList(path);
  if (!list) return null;
  const folder = resolve(output);
  // The kept files' stats, taken on another thread while the site renders.
  return {
    folder,
    ...list,
    restat: new Set(),
    aside: checkSignaturesAside(folder, list.signatures),
  };
}

export async function publishSite(input: PublishSiteInput): Promise<PublishOutcome> {
  const { staging, output, config } = input;
  const { site } = config;
  let files = timed("hash", () =>
    hashOutput(staging, { known: input.known, published: input.published }),
  );
  // What the last publish published: its list, kept in the cache folder even where the
  // output folder is not (a clean checkout on Netlify or CI), else the folder itself.
  const before = timed(
    "hash",
    () =>
      input.published?.hashes ??
      readFileList(fileListPath(config, output))?.hashes ??
      (existsSync(output) ? hashOutput(output).hashes : null),
  );
  // The pages this publish changed, for IndexNow after the deploy; unknown without a last publish.
  if (before && site.indexNow) {
    const pages = changedPages(before, files.hashes);
    files = recordChangedPages(staging, files, pages, site.urls, input.published);
  }
  // Counted once the manifest is final: it says which pages changed.
  const changes = before && compareFiles(before, files.hashes);
  count("files.kept", files.kept);
  count("files.written", files.files - files.kept);

  const manifestPath = siteFile(staging, output, paths.apiManifest());
  const built = parseManifestCounts(JSON.parse(await readFile(manifestPath, "utf8")));
  if ("problem" in built) {
    throw new PublishError(`The built ${paths.apiManifest()} is unusable: ${built.problem}.`);
  }
  const previous = await loadPreviousManifest({
    siteUrl: site.url,
    outputDir: output,
    publishedSite: config.publish.publishedSite,
  });
  const shrink = checkShrink({
    previous: previous.manifest,
    next: built.manifest,
    ...config.publish.shrinkGuard,
  });

  // Into the folder the last publish left, the kept files untouched; else the whole site swapped in.
  const { published } = input;
  const moved = published
    ? timed("publish", () =>
        publishInPlace(staging, output, {
          previousFiles: published.hashes.keys(),
          files: files.hashes,
        }),
      )
    : await timedAsync("publish", async () => {
        await publishAtomically(staging, output);
        return null;
      });
  // Each file as it now is: what the next build checks before keeping one. A kept file
  // was not touched, and keeps the signature it had, unless it had to be hashed again.
  const signatures = timed("signatures", () =>
    moved && published
      ? keptSignatures(output, moved, published)
      : fileSignatures(output, files.hashes.keys()),
  );
  // Only a published site moves on the state the next build compares with.
  const state = input.state
    ? await keepPublishedState(config.cacheDir, output, input.state)
    : { hash: null };
  const kept = [
    ...("warning" in state ? [state.warning] : []),
    ...keepFileList(fileListPath(config, output), files, signatures, published),
  ];
  // Found as published by a later build only if everything it compares with was kept.
  const inputs = kept.length === 0 ? (input.inputs ?? null) : null;
  const warnings = [
    ...shrink.warnings,
    ...kept,
    ...(await keepInputs(config, output, inputs, {
      manifest: files.hashes.get(paths.apiManifest().slice(1)),
      state: "hash" in state ? state.hash : null,
    })),
  ];
  return { files, changes, manifest: built.manifest, warnings };
}

/**
 * The signatures of the files moved in and of those kept that were hashed
 * again, the others as they were: looked up through the published list's,
 * not copied from it (530,000 entries at 100,000 events, held at the
 * publish step's peak).
 */
function keptSignatures(
  output: string,
  moved: readonly string[],
  published: PublishedFiles,
): Pick<FileSignatures, "get"> {
  const taken = fileSignatures(output, [...moved, ...(published.restat ?? [])]);
  const before = published.signatures;
  return { get: (path) => taken.get(path) ?? before?.get(path) };
}

/** Writes the published state (its hash); a failure is a warning (the site is already published). */
async function keepPublishedState(
  cacheDir: string,
  output: string,
  state: PublishedState,
): Promise<{ readonly hash: string } | { readonly warning: string }> {
  try {
    return { hash: (await savePublishedState({ cacheDir, output }, state)).hash };
  } catch (error) {
    return {
      warning: `The published state could not be kept (${(error as Error).message}); the next build compares with an older one.`,
    };
  }
}

/** Records the site's inputs for the next build (src/publish/unchanged-build.ts); a failure is a warning. */
async function keepInputs(...args: Parameters<typeof recordPublishedInputs>): Promise<string[]> {
  try {
    await recordPublishedInputs(...args);
    return [];
  } catch (error) {
    return [
      `The record of this build's inputs could not be kept (${(error as Error).message}); the next build renders what changed even if nothing did.`,
    ];
  }
}

/** Keeps the published files' hashes for the next build's counts; a failure is a warning. */
function keepFileList(
  path: string,
  files: OutputFiles,
  signatures: Pick<FileSignatures, "get">,
  published: PublishedFiles | null,
): string[] {
  try {
    // Only what changed, added to the list the build read (writeFileList).
    writeFileList(path, files.hashes, files.inputs, signatures, published);
    return [];
  } catch (error) {
    return [
      `The list of published files could not be kept (${(error as Error).message}); the next build counts changed files against the output folder.`,
    ];
  }
}
