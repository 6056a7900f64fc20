import { defineCommand, readCommandLine, stopWithUsageError } from "../src/cli/command-line.ts";
import { fileSignatures, hashOutput } from "../src/publish/output-files.ts";

/**
 * What it costs to make sure a published file is still the one the list
 * says before a build keeps it (docs/deploy.md, "Only what changed"): for
 * every file of a built site, a stat and its signature (what a build does
 * now, src/render/published-files.ts) against reading and hashing it (what
 * checking by content would do). Run it on a site built on tmpfs and on
 * disk; the page cache is as the caller left it (evict the folder's files
 * first for a cold read).
 */

const PUBLISHED_FILES_BENCH = defineCommand({
  run: "node --import tsx bench/published-files.ts",
  summary:
    "Times a stat of every file of a built site against reading and hashing every one, the median of a few runs each.",
  forms: ["[--runs <n>] <site dir>"],
  options: {
    runs: { type: "string", value: "<n>", default: "3", meaning: "runs of each, 1 to 9" },
  },
  positionals: true,
  settings: [],
});

const { values, positionals } = readCommandLine(PUBLISHED_FILES_BENCH);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 9) {
  stopWithUsageError(PUBLISHED_FILES_BENCH, `--runs: expected 1 to 9, got "${values.runs}"`);
}
const [root] = positionals;
if (!root || positionals.length > 1) {
  stopWithUsageError(PUBLISHED_FILES_BENCH, "name one built site's folder");
}

const median = (measure: () => void): number => {
  const times = Array.from({ length: runs }, () => {
    const started = performance.now();
    measure();
    return performance.now() - started;
  }).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
};

// The first pass reads each file's bytes as the caller left them: a cold read, if evicted.
const started = performance.now();
const files = hashOutput(root);
const firstRead = performance.now() - started;
const paths = [...files.hashes.keys()];
const stat = median(() => fileSignatures(root, paths));
const read = median(() => hashOutput(root));
console.log(
  JSON.stringify(
    {
      root,
      files: files.files,
      megabytes: Math.round(files.bytes / 1e5) / 10,
      statEveryFileMs: Math.round(stat),
      readAndHashEveryFileMs: Math.round(read),
      firstReadAndHashMs: Math.round(firstRead),
    },
    null,
    2,
  ),
);
