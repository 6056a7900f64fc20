// Starts a command's TypeScript entry point (`node src/launch.mjs
// src/cli/build.ts --output …`, as the npm scripts do) from one bundle of
// the project's own modules, made by esbuild and kept in
// node_modules/.cache/event-calendar-publisher/commands/ until one of its
// sources changes. Loading the project's 300 modules one by one through tsx
// took about half of a command's start (`npm run build -- --help`: 0.83 s
// through tsx, 0.44 s from the bundle; docs/performance.md, "Starting a
// command"). The packages stay outside the bundle, loaded by Node as they
// are, and the code runs as tsx would run it: the same esbuild transform,
// each module's `import.meta.url`, `dirname` and `filename` its source's,
// and process.argv as `node --import tsx <entry>` would have it.
//
// The bundle is current while every source it was made from has the size
// and modification time it had then (this file, tsconfig.json and
// package.json among them); otherwise it is made again, which adds about
// 0.2 s to that start, and the bundles of entry points that are gone go.
// Where the cache cannot be written, the entry point runs through tsx as
// before.

import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import module from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const PROJECT_DIR = join(import.meta.dirname, "..");
const CACHE_DIR = join(PROJECT_DIR, "node_modules/.cache/event-calendar-publisher/commands");
/** Sources of every bundle beside the modules it holds: how they are read and bundled. */
const SETTINGS = [import.meta.filename, "tsconfig.json", "package.json"].map((path) =>
  resolve(PROJECT_DIR, path),
);

// Node 22 and later keep V8's compiled code of every module loaded from here
// on (the packages' and the bundle's) for the next start, checked against
// each file's contents; Node 20 has no such cache and compiles them anew.
module.enableCompileCache?.(
  join(PROJECT_DIR, "node_modules/.cache/event-calendar-publisher/compiled"),
);

const [entryArgument, ...args] = process.argv.slice(2);
if (!entryArgument) {
  console.error("usage: node src/launch.mjs <entry point.ts> [its options]");
  process.exit(2);
}
const entry = resolve(entryArgument);
process.argv = [process.argv[0] ?? "node", entry, ...args];

// Named for the entry point and where it is: worktrees of one clone may share node_modules.
const place = createHash("sha256").update(entry).digest("hex").slice(0, 12);
const name = `${relative(PROJECT_DIR, entry).replaceAll(/[\\/.]/g, "_")}-${place}`;
const bundlePath = join(CACHE_DIR, `${name}.mjs`);
const recordPath = join(CACHE_DIR, `${name}.json`);

/** "size mtime" of a file, or null when it is gone. */
function stamp(path) {
  const stats = statSync(path, { throwIfNoEntry: false, bigint: true });
  return stats ? `${stats.size} ${stats.mtimeNs}` : null;
}

/** Whether the bundle on record was made from the sources as they are now. */
function isCurrent() {
  let record;
  try {
    record = JSON.parse(readFileSync(recordPath, "utf8"));
  } catch {
    return false;
  }
  if (record?.entry !== entry || typeof record.sources !== "object") return false;
  for (const [path, was] of Object.entries(record.sources)) {
    if (stamp(path) !== was) return false;
  }
  return stamp(bundlePath) !== null;
}

/**
 * `import.meta.url`, `dirname` and `filename` are the module's own source's,
 * not the bundle's: the code finds its templates, workers and packages from
 * where it is written.
 */
function ownImportMeta(stamps) {
  return {
    name: "own-import-meta",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
        stamps[args.path] = stamp(args.path);
        const contents = readFileSync(args.path, "utf8")
          .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)))
          .replaceAll("import.meta.filename", JSON.stringify(args.path));
        return { contents, loader: "ts" };
      });
    },
  };
}

async function bundle() {
  const { build } = await import("esbuild");
  const stamps = {};
  for (const path of SETTINGS) stamps[path] = stamp(path);
  const result = await build({
    absWorkingDir: PROJECT_DIR,
    entryPoints: [entry],
    outfile: bundlePath,
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    // `node --enable-source-maps` names the sources' lines in a stack trace.
    sourcemap: "linked",
    logLevel: "silent",
    plugins: [ownImportMeta(stamps)],
  });
  for (const input of Object.keys(result.metafile.inputs)) {
    const path = resolve(PROJECT_DIR, input);
    stamps[path] ??= stamp(path);
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  // Written aside and renamed into place: commands started at once each see a whole file.
  const aside = (path) => `${path}.${process.pid}`;
  for (const file of result.outputFiles) {
    writeFileSync(aside(file.path), file.contents);
    renameSync(aside(file.path), file.path);
  }
  writeFileSync(aside(recordPath), JSON.stringify({ entry, sources: stamps }));
  renameSync(aside(recordPath), recordPath);
  forgetGoneEntries();
}

/**
 * Removes the bundles of entry points that are no longer there: clones and
 * worktrees that shared this node_modules (a link to it) and were deleted
 * would otherwise leave theirs, about a megabyte each, for good. Done when
 * a bundle is made, which is rare; a record that cannot be read is left.
 */
function forgetGoneEntries() {
  for (const name of readdirSync(CACHE_DIR)) {
    if (!name.endsWith(".json")) continue;
    try {
      const gone = JSON.parse(readFileSync(join(CACHE_DIR, name), "utf8"))?.entry;
      if (typeof gone !== "string" || stamp(gone) !== null) continue;
      const base = join(CACHE_DIR, name.slice(0, -".json".length));
      for (const path of [`${base}.mjs`, `${base}.mjs.map`, `${base}.json`])
        rmSync(path, { force: true });
    } catch {
      // Being written by another start, or not ours: left alone.
    }
  }
}

let bundled = isCurrent();
if (!bundled) {
  try {
    await bundle();
    bundled = true;
  } catch {
    // A source that does not compile is reported by tsx below, as it always
    // was; an unwritable cache costs only the start.
  }
}
if (bundled) {
  await import(pathToFileURL(bundlePath).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(entry).href);
}
