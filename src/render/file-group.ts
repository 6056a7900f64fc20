import { count, timed } from "../metrics.ts";
import type { FileContent } from "./disk-writes.ts";
import type { EventLoopTurns } from "./event-loop-turns.ts";
import type { FileWriter } from "./file-writer.ts";

/**
 * Files of one kind that a function writes rather than a template: feeds,
 * calendars, the public JSON, the widget's files. One mechanism for every
 * output that is not a page: a group names its items, and each item's path
 * and bytes. Nothing is held: each file is rendered, written and forgotten
 * before the next, so a group of 100,000 event downloads costs the memory of
 * one.
 */
export interface FileGroup<T = unknown> {
  /** The build phase its rendering counts under (docs/performance.md): "feeds", "ics", "json"... */
  readonly phase: string;
  /** For counters and messages, e.g. "event.ics". */
  readonly name: string;
  readonly items: readonly T[];
  /** The file's site path (src/model/url-scheme.ts). */
  path(item: T): string;
  render(item: T): FileContent;
  /**
   * Everything the file's bytes depend on besides the code, as text: a file
   * whose inputs are those of its last publish is kept as published and not
   * rendered (FileWriter.write). Must be cheaper than `render` and miss
   * nothing render reads, the build's clock included where it matters.
   */
  readonly inputs?: (item: T) => string;
  /**
   * What of a split build an item belongs to (src/shards): an event's key
   * for a group of one file per event. Without it the group is site-wide.
   */
  readonly shardKey?: (item: T) => string | null;
  /** Called once an item's file is written or kept, for this build's share: what only it needed can go. */
  readonly after?: (item: T) => void;
  /** Called once its files are written: what only it needed can go. */
  readonly done?: () => void;
}

/** Declares a group, keeping its item type inside (a list holds groups of several types). */
export function fileGroup<T>(group: FileGroup<T>): FileGroup {
  return group as FileGroup;
}

/** One file as a group of one. */
export function singleFile(
  phase: string,
  path: string,
  render: () => FileContent,
  inputs?: () => string,
): FileGroup {
  return fileGroup({
    phase,
    name: path,
    items: [path],
    path: () => path,
    render,
    ...(inputs ? { inputs } : {}),
  });
}

/** Files written per group name (rendered or kept), for the build's report and host limits. */
export type GroupCounts = ReadonlyMap<string, number>;

/**
 * Renders and writes the groups' files, letting the event loop turn now and
 * then; with `mine`, only the items of this build's share (a key of
 * `shardKey`, or null for a site-wide file). Returns how many files each
 * group wrote.
 */
export async function writeFileGroups(
  groups: readonly FileGroup[],
  writer: FileWriter,
  turns: EventLoopTurns,
  mine: (key: string | null) => boolean = () => true,
): Promise<GroupCounts> {
  const written = new Map<string, number>();
  for (const group of groups) {
    const { shardKey } = group;
    if (!shardKey && !mine(null)) {
      group.done?.();
      continue;
    }
    let rendered = 0;
    let kept = 0;
    for (const item of group.items) {
      if (shardKey && !mine(shardKey(item))) continue;
      if (turns.due()) await turns.take();
      const inputs = group.inputs && timed(group.phase, () => group.inputs?.(item));
      const render = () => timed(group.phase, () => group.render(item));
      if (timed("write", () => writer.write(group.path(item), render, inputs))) rendered++;
      else kept++;
      group.after?.(item);
    }
    written.set(group.name, (written.get(group.name) ?? 0) + rendered + kept);
    count(`rendered.${group.name}`, rendered);
    if (group.inputs) count(`reused.${group.name}`, kept);
    group.done?.();
  }
  return written;
}
