import { statSync } from "node:fs";
import { join } from "node:path";
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

/** A script's bundle and the sources it is made from, with their modification times. */
interface Bundle {
  readonly code: string;
  readonly sources: ReadonlyMap<string, number>;
}

const bundles = new Map<string, Bundle>();

/**
 * A script's bundle, made once per process; made again only when one of its
 * sources changed since (`npm start` watches them and rebuilds).
 */
export function browserBundle(script: BrowserScript): string {
  const key = `${script.kind} ${script.entry}`;
  let bundle = bundles.get(key);
  if (!bundle || !isCurrent(bundle)) {
    bundle = bundleScript(script);
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
  const sources = new Map<string, number>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const path = join(PROJECT_DIR, input);
    sources.set(path, statSync(path).mtimeMs);
  }
  return { code: output.text, sources };
}

function isCurrent(bundle: Bundle): boolean {
  for (const [path, modified] of bundle.sources) {
    if (statSync(path, { throwIfNoEntry: false })?.mtimeMs !== modified) return false;
  }
  return true;
}
