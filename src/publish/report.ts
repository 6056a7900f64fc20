import type { CardsSummary } from "../cards/share-cards.ts";
import type { ChangeReport, ReportItem } from "../changes/detect-changes.ts";
import { AUTO_ALL_MAX_EVENTS } from "../config/cards.ts";
import { type RichResults, richResultsLines } from "../outputs/rich-results.ts";
import type { FileChanges } from "./output-files.ts";

/**
 * The short report that ends every build log. docs/deploy.md explains each
 * line; keep the two in step.
 */
export interface BuildReportInput {
  /** Each source of a site of several (docs/sources.md); absent for one portal. */
  readonly sources?: readonly {
    readonly id: string;
    readonly name: string;
    readonly events: number;
    readonly stale: boolean;
    readonly fetchedAt: string;
  }[];
  /** The events merged into another source's, one line each. */
  readonly merged?: readonly string[];
  readonly calendars: number;
  readonly events: number;
  readonly pages: number;
  readonly files: number;
  readonly bytes?: number;
  readonly warnings: readonly string[];
  /**
   * Where every warning is written (src/publish/build-warnings.ts), named
   * when the report lists only some; omitted: not named.
   */
  readonly warningsFile?: string;
  /** List every warning (`npm run build -- --verbose`), not only the first ten. */
  readonly allWarnings?: boolean;
  readonly seconds: number;
  /** Where the site was published, e.g. "_site". */
  readonly output: string;
  /** DEPLOY_TARGET's limits against this build (src/publish/host-limits.ts); omitted: no line. */
  readonly host?: string | null;
  /**
   * What changed since the last publish (src/changes); null when no previous
   * state was found; omitted, no line at all.
   */
  readonly changes?: ChangeReport | null;
  /**
   * Files new, changed and removed since the last publish
   * (src/publish/output-files.ts); null when there was nothing to compare
   * with; omitted, no line at all.
   */
  readonly fileChanges?: FileChanges | null;
  /**
   * What of Google's Event rich results the event pages' JSON-LD carries
   * (src/outputs/rich-results.ts); omitted, no lines.
   */
  readonly richResults?: RichResults;
  /** The share cards published and drawn (src/cards/share-cards.ts); null or omitted: no line. */
  readonly cards?: CardsSummary | null;
  /**
   * A build that found its inputs as the last publish (`since`) recorded
   * them, before the next date-relative change (`until`), and kept its
   * files (src/publish/unchanged-build.ts): a changes line that says so.
   */
  readonly unchanged?: { readonly since: string; readonly until: string };
}

/**
 * Warnings beyond this many are counted, not listed, so the report stays
 * short; the warnings file has them all, and --verbose lists them.
 */
const MAX_LISTED_WARNINGS = 10;

/** Events named per kind of change; the rest are counted. */
const MAX_NAMED_CHANGES = 3;

/** Always listed, with 0 when nothing of the kind happened; the others only when they did. */
const CHANGE_LINES = ["added", "changed", "moved", "cancelled", "deleted"] as const;
const OCCASIONAL_CHANGE_LINES = ["postponed", "reinstated"] as const;

export function formatBuildReport(input: BuildReportInput): string {
  const size = input.bytes === undefined ? "" : `, ${formatBytes(input.bytes)}`;
  const lines = [
    "Build report",
    `  calendars  ${input.calendars}`,
    `  events     ${input.events}`,
    ...sourceLines(input),
    ...(input.unchanged ? unchangedLines(input.unchanged) : changeLines(input.changes)),
    `  pages      ${input.pages}`,
    `  files      ${input.files}${size} in ${input.output}`,
    ...fileChangeLines(input.fileChanges),
    ...(input.host ? [`  host       ${input.host}`] : []),
    ...(input.cards ? [`  cards      ${cardsLine(input.cards)}`] : []),
    ...(input.richResults ? richResultsLines(input.richResults) : []),
    ...warningLines(input),
  ];
  lines.push(`  time       ${input.seconds.toFixed(1)} s`);
  return lines.join("\n");
}

/**
 * Per source its events and whether they are its last good data; then the
 * events merged, named up to MAX_NAMED_CHANGES (all are in the warnings).
 */
function sourceLines(input: BuildReportInput): string[] {
  if (!input.sources) return [];
  const lines = input.sources.map(
    (source) =>
      `  source     ${source.id} (${oneLine(source.name)}): ${formatCount(source.events)} events${source.stale ? `, its data from ${source.fetchedAt}` : ""}`,
  );
  const merged = input.merged ?? [];
  lines.push(`  merged     ${formatCount(merged.length)}`);
  for (const line of merged.slice(0, MAX_NAMED_CHANGES)) lines.push(`    - ${oneLine(line)}`);
  if (merged.length > MAX_NAMED_CHANGES) {
    lines.push(
      `    … and ${formatCount(merged.length - MAX_NAMED_CHANGES)} more among the warnings`,
    );
  }
  return lines;
}

/** The count, the warnings listed, and where the others are. */
function warningLines(input: BuildReportInput): string[] {
  const { warnings } = input;
  const listed = input.allWarnings ? warnings : warnings.slice(0, MAX_LISTED_WARNINGS);
  const lines = [
    `  warnings   ${formatCount(warnings.length)}`,
    ...listed.map((warning) => `    - ${oneLine(warning)}`),
  ];
  const hidden = warnings.length - listed.length;
  if (hidden > 0) {
    const where = input.warningsFile
      ? `: all ${formatCount(warnings.length)} in ${input.warningsFile}, and listed here with --verbose`
      : "";
    lines.push(`    … and ${formatCount(hidden)} more${where}`);
  }
  return lines;
}

/** The cards published, drawn, the shapes each event got and, under `auto`, why. */
function cardsLine(cards: CardsSummary): string {
  const events = `each event of the next ${formatCount(cards.days)} days`;
  const shapes =
    cards.shapes === "all"
      ? `${events} 1200x630 and Google's 16:9, 4:3 and 1:1`
      : `${events} 1200x630 only`;
  const limit = `${cards.shapes === "all" ? "up to" : "more than"} ${formatCount(AUTO_ALL_MAX_EVENTS)}`;
  const more = cards.shapes === "og" ? "; all draws the other shapes too" : "";
  const why =
    cards.mode === "auto"
      ? `SHARE_CARDS=auto: ${formatCount(cards.eventCards)} events, ${limit}${more}`
      : `SHARE_CARDS=${cards.mode}`;
  return `${formatCount(cards.files)} files, ${formatCount(cards.drawn)} drawn; ${shapes} (${why})`;
}

/** A count with thousands separators, as every report line writes them: "10,023". */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

function changeLines(changes: ChangeReport | null | undefined): string[] {
  if (changes === undefined) return [];
  if (changes === null) return ["  changes    none known (no previous state to compare with)"];
  const lines = [`  changes    since the last publish (${formatUtc(changes.since)})`];
  const kinds = [
    ...CHANGE_LINES,
    ...OCCASIONAL_CHANGE_LINES.filter((kind) => changes[kind].length > 0),
  ];
  for (const kind of kinds) {
    const items = changes[kind];
    const named = items.slice(0, MAX_NAMED_CHANGES).map(describeItem);
    if (items.length > MAX_NAMED_CHANGES)
      named.push(`… and ${items.length - MAX_NAMED_CHANGES} more`);
    const label = kind.padEnd(10);
    lines.push(
      `    ${label} ${String(items.length).padEnd(3)}${named.length ? ` ${named.join("; ")}` : ""}`.trimEnd(),
    );
  }
  return lines;
}

function unchangedLines(unchanged: NonNullable<BuildReportInput["unchanged"]>): string[] {
  return [
    `  changes    none since the last publish (${formatUtc(unchanged.since)}): the portal's data, the settings and the code are as it recorded them, and nothing date-relative changes before ${formatUtc(unchanged.until, "seconds")}; nothing rendered, its files kept`,
  ];
}

function fileChangeLines(changes: FileChanges | null | undefined): string[] {
  if (changes === undefined) return [];
  if (changes === null) return ["    changed  not known (no earlier files to compare with)"];
  return [
    `    changed  ${changes.added} new, ${changes.changed} changed, ${changes.removed} removed since the last publish (${changes.unchanged} unchanged)`,
  ];
}

function describeItem(item: ReportItem): string {
  const title = oneLine(item.title);
  return item.detail ? `${title} (${oneLine(item.detail)})` : title;
}

/** "2026-03-19 12:00 UTC", or with "seconds" "2026-03-19 12:00:30 UTC" (a moment to the second). */
function formatUtc(iso: string, precision: "minutes" | "seconds" = "minutes"): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime())
    ? iso
    : `${time
        .toISOString()
        .slice(0, precision === "seconds" ? 19 : 16)
        .replace("T", " ")} UTC`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Keeps each warning on one report line (portal text may contain newlines). */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
