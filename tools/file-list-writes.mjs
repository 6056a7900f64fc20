// What keeping a published file list costs after a publish (docs/performance.md,
// What changed, item 71): the list written whole, against a line of the files
// that changed added to its journal, and the list read back with that line.
// Works on a copy, in a folder of its own; the list given is not touched.
//
//   node --import tsx tools/file-list-writes.mjs .cache/published/<key>/files.json [changed files, 40] [rounds, 3]
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMetrics } from "../src/metrics.ts";
import { readFileList, writeFileList } from "../src/publish/output-files.ts";

const [source, changedArg = "40", roundsArg = "3"] = process.argv.slice(2);
if (!source) {
  console.error(
    "usage: node --import tsx tools/file-list-writes.mjs <files.json> [changed files] [rounds]",
  );
  process.exit(2);
}
const changed = Number(changedArg);
const rounds = Number(roundsArg);
const folder = mkdtempSync(join(tmpdir(), "file-list-"));
const path = join(folder, "files.json");
const ms = (run) => {
  const started = performance.now();
  const value = run();
  return { ms: Math.round(performance.now() - started), value };
};
const listed = () => readMetrics().counters["files.listed"] ?? 0;
try {
  copyFileSync(source, path);
  for (let round = 1; round <= rounds; round++) {
    const read = ms(() => readFileList(path));
    const list = read.value;
    if (!list) {
      console.error(`${source} is not a readable file list`);
      process.exitCode = 1;
      break;
    }
    // As a publish gives them: the list's maps, `changed` files with new bytes and signatures.
    const hashes = new Map(list.hashes);
    const signatures = new Map(list.signatures);
    let edited = 0;
    for (const file of hashes.keys()) {
      if (edited++ === changed) break;
      hashes.set(file, `${hashes.get(file)}-${round}`);
      signatures.set(file, (signatures.get(file) ?? 0) + round);
    }
    const whole = ms(() => writeFileList(path, hashes, list.inputs, signatures));
    const before = listed();
    const again = readFileList(path);
    for (const file of [...hashes.keys()].slice(0, changed))
      hashes.set(file, `${hashes.get(file)}+`);
    const journal = ms(() => writeFileList(path, hashes, list.inputs, signatures, again));
    const named = listed() - before;
    const back = ms(() => readFileList(path));
    const same =
      back.value?.hashes.size === hashes.size &&
      [...hashes].every(([file, hash]) => back.value?.hashes.get(file) === hash);
    console.log(
      `round ${round}: ${hashes.size} files; read ${read.ms} ms; written whole ${whole.ms} ms; ` +
        `${changed} changed added to the journal ${journal.ms} ms (${named} files named); ` +
        `read back with it ${back.ms} ms, ${same ? "the same files" : "NOT THE SAME FILES"}`,
    );
    if (!same) {
      process.exitCode = 1;
      break;
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
