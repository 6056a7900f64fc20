import { defaultHeaderRules, type HeaderRule, headersFor } from "./headers.ts";

/**
 * How to copy a build to an S3-compatible bucket behind a CDN with the
 * headers a bucket can hold (`npm run headers -- --format s3`): per kind of
 * file, its Content-Type, Cache-Control and Content-Disposition from
 * netlify.toml's rules, as `aws s3 sync` passes. A bucket stores these per
 * object; the other headers (the policy, frame rules, CORS) belong to the CDN
 * in front (docs/deploy.md). New files go up first and old ones are deleted
 * last, so the site never links to a file that is not there yet or any more.
 * Event images (/media/*) go up as downloads (netlify.toml's
 * Content-Disposition): their sandboxing policy is the CDN's to send, and a
 * download keeps an active file inert where the bucket is reached without it.
 */

/** The headers an object in a bucket keeps, and the aws CLI option that sets each. */
const STORED = [
  ["Content-Type", "--content-type"],
  ["Cache-Control", "--cache-control"],
  ["Content-Disposition", "--content-disposition"],
] as const;

export type StoredHeaders = Readonly<Record<string, string>>;

export interface SyncPass {
  /** `aws s3 sync` filters in order (the last that matches a file decides; none: included). */
  readonly filters: readonly (readonly ["exclude" | "include", string])[];
  /** What each uploaded object keeps; a missing Content-Type is guessed from the extension. */
  readonly headers: StoredHeaders;
}

/** The upload passes: one per kind netlify.toml gives stored headers of its own, then the rest. */
export function syncPasses(rules: readonly HeaderRule[] = defaultHeaderRules()): SyncPass[] {
  const kinds = new Map<string, { patterns: string[]; headers: StoredHeaders }>();
  for (const rule of rules) {
    if (
      rule.values["Content-Type"] === undefined &&
      rule.values["Content-Disposition"] === undefined
    )
      continue;
    const headers = stored(headersFor(samplePath(rule.for), rules));
    const key = JSON.stringify(headers);
    const kind = kinds.get(key) ?? { patterns: [], headers };
    kind.patterns.push(syncPattern(rule.for));
    kinds.set(key, kind);
  }
  const all = [...kinds.values()];
  const passes: SyncPass[] = all.map((kind) => {
    // A narrower kind's files (event.ics among all .ics) go up in its own pass only.
    const narrower = all
      .filter((other) => other !== kind)
      .flatMap((other) => other.patterns)
      .filter((pattern) => kind.patterns.some((own) => globMatches(own, sampleOf(pattern))));
    return {
      filters: [
        ["exclude", "*"],
        ...kind.patterns.map((p) => ["include", p] as const),
        ...narrower.map((p) => ["exclude", p] as const),
      ],
      headers: kind.headers,
    };
  });
  passes.push({
    filters: all.flatMap((kind) => kind.patterns.map((p) => ["exclude", p] as const)),
    headers: stored(headersFor("/x", rules)),
  });
  return passes;
}

/** A POSIX shell script: each pass, then deletions. */
export function renderS3Sync(passes: readonly SyncPass[] = syncPasses()): string {
  const rest = passes.at(-1)?.headers ?? {};
  const lines = passes.map((pass, index) => {
    const filters = pass.filters.map(([kind, pattern]) => `--${kind} ${quote(pattern)}`);
    const included = pass.filters.flatMap(([kind, pattern]) =>
      kind === "include" ? [pattern] : [],
    );
    const what =
      pass.headers["Content-Type"] ??
      (index === passes.length - 1
        ? "everything else: its type from its extension"
        : `${included.join(", ")}: the type of each from its extension`);
    return `# ${what}${pass.headers["Content-Disposition"] ? ` (${pass.headers["Content-Disposition"]})` : ""}
aws s3 sync "$SITE" "$BUCKET" ${filters.join(" ")} \\
  ${options(pass.headers)}`;
  });
  return `#!/bin/sh
# Written by \`npm run headers -- --format s3\` from netlify.toml's [[headers]]:
# change those and write this again. Copies a build to an S3-compatible bucket
# (aws CLI; add --endpoint-url for other providers) with each kind's stored
# headers: new files first, deletions last.
#   SITE=_site BUCKET=s3://events-bucket sh s3-sync.sh
set -eu
SITE="\${SITE:-_site}"
BUCKET="\${BUCKET:?set BUCKET, e.g. s3://events-bucket}"

${lines.join("\n\n")}

# Only now delete what the new build no longer has (nothing is left to upload).
aws s3 sync "$SITE" "$BUCKET" --delete ${options(rest)}
`;
}

function stored(headers: Record<string, string>): StoredHeaders {
  return Object.fromEntries(
    STORED.flatMap(([name]) => (headers[name] === undefined ? [] : [[name, headers[name]]])),
  );
}

function options(headers: StoredHeaders): string {
  return STORED.flatMap(([name, option]) =>
    headers[name] === undefined ? [] : [`${option} ${quote(headers[name] ?? "")}`],
  ).join(" ");
}

/** netlify.toml's path as an aws CLI pattern: there `*` spans folders, and may be empty. */
function syncPattern(forPath: string): string {
  return forPath
    .replace(/^\/+/, "")
    .split("/")
    .map((part) => (part.startsWith(":") ? "*" : part))
    .join("/")
    .replace(/(^|\/)\*\//g, "$1*");
}

/** A path the rule matches, to ask headersFor what else such a file gets. */
function samplePath(forPath: string): string {
  return forPath.replace(/\*/g, "x").replace(/:[A-Za-z]\w*/g, "x");
}

/** A file an aws pattern matches. */
function sampleOf(pattern: string): string {
  return pattern.replace(/\*/g, "x");
}

/** aws CLI's matching (Python's fnmatch): `*` any characters, `/` included. */
function globMatches(pattern: string, path: string): boolean {
  const source = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${source.join(".*")}$`).test(path);
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
