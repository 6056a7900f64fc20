import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { decode, encode } from "cborg";
import { compareCodeUnits } from "../model/order.ts";

/**
 * Pagefind (1.5) writes the same index and fragment files for the same
 * records, but its filter files and the metadata file that names them come
 * out of hash maps in a different order on every run, and so under new names
 * (Pagefind issue #638). A rebuild would then upload them again and throw
 * away CDN caches for nothing. This puts their contents in one order and
 * names them by that content, so the same records give the same file names
 * and bytes (docs/site.md, "Stable files").
 *
 * The files are gzip'd CBOR behind a 12-byte signature; only the order of
 * lists whose order Pagefind does not read is changed (filter values, the
 * metadata's filter list), then the files are named by a hash of their bytes
 * as Pagefind names them: `<language>_<7 hex>.pf_filter` and
 * `pagefind.<language>_<10 hex>.pf_meta`, with pagefind-entry.json pointing
 * at the new metadata file.
 *
 * With `pagePrefix`, every page (the fragment a result's data() loads) is
 * named with it in front: the part's key, which the browser reads from a
 * merged result's id to put results from several parts in one order
 * (search-parts.ts). The metadata lists the pages by name; nothing else does.
 */

export interface IndexFile {
  readonly path: string;
  readonly content: Uint8Array;
}

const SIGNATURE_BYTES = 12;
const FILTER = /^(?<dir>\/?filter\/)(?<name>(?<language>[^/_]+)_[0-9a-f]+)\.pf_filter$/;
const META = /^(?<dir>\/?)pagefind\.(?<name>(?<language>[^/_]+)_[0-9a-f]+)\.pf_meta$/;
const ENTRY = /^\/?pagefind-entry\.json$/;
const FRAGMENT = /^(?<dir>\/?fragment\/)(?<name>[^/]+)\.pf_fragment$/;

/** The index files with filter and metadata files in a stable order and named by their content. */
export function stableIndexFiles(
  files: readonly IndexFile[],
  options: { readonly pagePrefix?: string } = {},
): IndexFile[] {
  const pagePrefix = options.pagePrefix ?? "";
  const renamedFilters = new Map<string, string>();
  const out: IndexFile[] = [];
  for (const file of files) {
    const match = FILTER.exec(file.path)?.groups;
    if (!match) continue;
    // [filter name, [[value, [page numbers]], ...]]: values sorted by value.
    const [signature, filter] = read(file.content);
    const [name, values] = filter as [string, [string, number[]][]];
    const content = write(signature, [name, [...values].sort(byFirst)]);
    const stable = `${match.language}_${hex(content, 7)}`;
    renamedFilters.set(match.name ?? "", stable);
    out.push({ path: `${match.dir}${stable}.pf_filter`, content });
  }
  const renamedMeta = new Map<string, string>();
  for (const file of files) {
    const match = META.exec(file.path)?.groups;
    if (!match) continue;
    // [version, pages, index chunks, [[filter, file name], ...], sorts, meta fields]
    const [signature, meta] = read(file.content);
    const fields = [...(meta as unknown[])];
    if (pagePrefix) {
      fields[1] = (fields[1] as [string, number][]).map(([page, words]) => [
        `${pagePrefix}${page}`,
        words,
      ]);
    }
    fields[3] = (fields[3] as [string, string][])
      .map(([filter, hash]): [string, string] => [filter, renamedFilters.get(hash) ?? hash])
      .sort(byFirst);
    if (Array.isArray(fields[4])) fields[4] = [...(fields[4] as [string, unknown][])].sort(byFirst);
    const content = write(signature, fields);
    const stable = `${match.language}_${hex(content, 10)}`;
    renamedMeta.set(match.name ?? "", stable);
    out.push({ path: `${match.dir}pagefind.${stable}.pf_meta`, content });
  }
  for (const file of files) {
    if (FILTER.test(file.path) || META.test(file.path)) continue;
    const fragment = FRAGMENT.exec(file.path)?.groups;
    if (fragment) {
      out.push({
        path: `${fragment.dir}${pagePrefix}${fragment.name}.pf_fragment`,
        content: file.content,
      });
      continue;
    }
    if (!ENTRY.test(file.path)) {
      out.push(file);
      continue;
    }
    const entry = JSON.parse(Buffer.from(file.content).toString("utf8")) as {
      languages?: Record<string, { hash?: string }>;
    };
    for (const language of Object.values(entry.languages ?? {})) {
      if (language.hash && renamedMeta.has(language.hash)) {
        language.hash = renamedMeta.get(language.hash);
      }
    }
    out.push({ path: file.path, content: Buffer.from(JSON.stringify(entry)) });
  }
  return out.sort((a, b) => compareCodeUnits(a.path, b.path));
}

function read(content: Uint8Array): [Uint8Array, unknown] {
  const raw = gunzipSync(content);
  return [
    raw.subarray(0, SIGNATURE_BYTES),
    decode(raw.subarray(SIGNATURE_BYTES), { useMaps: false }),
  ];
}

function write(signature: Uint8Array, value: unknown): Uint8Array {
  // gzip with no name and no time in its header: the same input gives the same bytes.
  return gzipSync(Buffer.concat([signature, encode(value)]), { level: 9 });
}

function hex(content: Uint8Array, length: number): string {
  return createHash("sha256").update(content).digest("hex").slice(0, length);
}

function byFirst(a: readonly [string, ...unknown[]], b: readonly [string, ...unknown[]]): number {
  return compareCodeUnits(a[0], b[0]);
}
