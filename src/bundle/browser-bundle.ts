import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { buildSync } from "esbuild";

/**
 * The browser scripts (src/site/browser, src/widget/browser, sharing
 * src/browser), each bundled by esbuild into one self-contained file, as the
 * pages load them: a classic script (`defer`, `async`) as an IIFE that
 * leaves nothing in the page's globals, a module (`type="module"`) as ESM.
 *
 * The bytes depend on the sources alone: esbuild runs from the project's
 * folder, whatever the process's, so the file names it notes in its output
 * are the same relative paths on every machine; no source map, no minified
 * names. ES2020 is the syntax the scripts are lowered to; the browser APIs
 * they use are not polyfilled. Under the Content-Security-Policy's
 * `script-src 'self'` nothing may be evaluated from a string, and nothing is.
 */

export interface BrowserScript {
  /** The source, from the project's folder: "src/site/browser/site.ts". */
  readonly entry: string;
  /** How pages load it: "classic" (`defer`, `async`) or "module" (`type="module"`). */
  readonly kind: "classic" | "module";
}

const PROJECT_DIR = join(import.meta.dirname, "../..");

/** The folders of the browser's code, from the project's folder: `npm start` watches them. */
export const BROWSER_SOURCES = ["src/browser/", "src/site/browser/", "src/widget/browser/"];
/** The browser code's own settings (strict mode among them), for every script alike. */
const TSCONFIG = "src/browser/tsconfig.json";

/** A script's bundle and the sources it is made from, each with its "size mtime" stamp. */
export interface Bundle {
  readonly code: string;
  readonly sources: Readonly<Record<string, string | null>>;
}

/**
 * Where bundles outlive the process, beside the commands' own
 * (src/launch.mjs): named for the project's folder too, since worktrees of
 * one clone may share node_modules.
 */
const CACHE_DIR = join(PROJECT_DIR, "node_modules/.cache/event-calendar-publisher/browser");
const PLACE = createHash("sha256").update(PROJECT_DIR).digest("hex").slice(0, 12);

/** What every bundle is made with besides its sources: this file's options, the settings, esbuild itself. */
const TOOLS = [
  import.meta.filename,
  join(PROJECT_DIR, TSCONFIG),
  join(PROJECT_DIR, "node_modules/esbuild/package.json"),
];

const bundles = new Map<string, Bundle>();

/**
 * A script's bundle, made once and kept on disk until one of its sources
 * changes (every build used to start esbuild and bundle nine scripts again:
 * about 0.1 s of each build's start), and in memory for the process;
 * `npm start` watches the sources and rebuilds.
 */
export function browserBundle(script: BrowserScript): string {
  const key = `${script.kind} ${script.entry}`;
  let bundle = bundles.get(key);
  if (!bundle || !isCurrent(bundle)) {
    const cached = join(
      CACHE_DIR,
      `${script.kind}-${script.entry.replaceAll(/[\\/.]/g, "_")}-${PLACE}.json`,
    );
    bundle = readKeptBundle(cached) ?? keepBundle(cached, bundleScript(script));
    bundles.set(key, bundle);
  }
  return bundle.code;
}

/** Bundles a script anew (browserBundle keeps the result). */
export function bundleScript(script: BrowserScript): Bundle {
  const result = buildSync({
    absWorkingDir: PROJECT_DIR,
    tsconfig: TSCONFIG,
    entryPoints: [script.entry],
    bundle: true,
    write: false,
    metafile: true,
    format: script.kind === "module" ? "esm" : "iife",
    platform: "browser",
    target: "es2020",
    logLevel: "silent",
  });
  if (result.warnings.length > 0) {
    const messages = result.warnings.map((warning) => warning.text).join("; ");
    throw new Error(`${script.entry}: esbuild warns: ${messages}`);
  }
  const [output] = result.outputFiles;
  if (!output) throw new Error(`${script.entry}: esbuild wrote nothing.`);
  const sources: Record<string, string | null> = {};
  for (const path of [...TOOLS, ...Object.keys(result.metafile.inputs)]) {
    const full = resolve(PROJECT_DIR, path);
    sources[full] = stamp(full);
  }
  return { code: output.text, sources };
}

/** "size mtime" of a file, or null when it is gone. */
function stamp(path: string): string | null {
  const stats = statSync(path, { throwIfNoEntry: false, bigint: true });
  return stats ? `${stats.size} ${stats.mtimeNs}` : null;
}

function isCurrent(bundle: Bundle): boolean {
  return Object.entries(bundle.sources).every(([path, was]) => stamp(path) === was);
}

/** The bundle kept at `path`, if it was made from the sources as they are now. */
export function readKeptBundle(path: string): Bundle | undefined {
  try {
    const bundle = JSON.parse(readFileSync(path, "utf8")) as Bundle;
    return typeof bundle.code === "string" && isCurrent(bundle) ? bundle : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a bundle at `path` for the next process; where it cannot be written, the next bundles again. */
export function keepBundle(path: string, bundle: Bundle): Bundle {
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Written aside and renamed into place: builds started at once each see a whole file.
    writeFileSync(`${path}.${process.pid}`, JSON.stringify(bundle));
    renameSync(`${path}.${process.pid}`, path);
  } catch {
    // A read-only node_modules costs the next build its bundling, nothing else.
  }
  return bundle;
}
