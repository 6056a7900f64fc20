import { count, timed } from "../metrics.ts";
import { owns, type Shard, type ShardKey, WHOLE_BUILD } from "../shards/shard.ts";
import type { EventLoopTurns } from "./event-loop-turns.ts";
import { type FileWriter, type PublishedPieces, pieceDigests } from "./file-writer.ts";

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
  render(item: T): string | Uint8Array;
  /**
   * Everything the file's bytes depend on besides the code, as text: a file
   * whose inputs are those of its last publish is kept as published and not
   * rendered (FileWriter.keepUnchanged). Must be cheaper than `render` and
   * miss nothing render reads, the build's clock included where it matters.
   */
  readonly inputs?: (item: T) => string;
  /**
   * What each piece of the file is made from, in the file's order, as text
   * (a feed's items: each event and the settings that shape it). A file
   * whose inputs changed is then made by `renderReusing`, which takes the
   * pieces that are the same as published from the published copy.
   */
  readonly pieces?: (item: T) => readonly string[];
  /** Renders the file with the published copy's unchanged pieces (see `pieces`). */
  readonly renderReusing?: (item: T, published: PublishedPieces) => string | Uint8Array;
  /**
   * Which shard of a split build writes an item (src/shards/shard.ts): a
   * group of one file per event names the event's key. Without it the group
   * is site-wide, written by shard 1.
   */
  readonly shardKey?: (item: T) => ShardKey;
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
  render: () => string | Uint8Array,
): FileGroup {
  return fileGroup({ phase, name: path, items: [path], path: () => path, render });
}

/** Renders and writes the groups' files, those of `shard`'s share only, letting the event loop turn now and then. */
export async function writeFileGroups(
  groups: readonly FileGroup[],
  writer: FileWriter,
  turns: EventLoopTurns,
  shard: Shard = WHOLE_BUILD,
): Promise<void> {
  for (const group of groups) {
    const { shardKey } = group;
    if (!shardKey && !owns(shard, null)) {
      group.done?.();
      continue;
    }
    let rendered = 0;
    let reused = 0;
    for (const item of group.items) {
      if (shardKey && !owns(shard, shardKey(item))) continue;
      if (turns.due()) await turns.take();
      const path = group.path(item);
      const inputs = group.inputs && timed(group.phase, () => group.inputs?.(item));
      if (inputs !== undefined && timed("write", () => writer.keepUnchanged(path, inputs))) {
        reused++;
        continue;
      }
      const pieces =
        group.pieces && timed(group.phase, () => pieceDigests(group.pieces?.(item) ?? []));
      const published =
        pieces !== undefined &&
        group.renderReusing &&
        timed("write", () => writer.publishedPieces(path, pieces));
      const content = timed(group.phase, () =>
        published && group.renderReusing
          ? group.renderReusing(item, published)
          : group.render(item),
      );
      timed("write", () => writer.write(path, content, inputs, pieces));
      rendered++;
    }
    count(`rendered.${group.name}`, rendered);
    if (group.inputs) count(`reused.${group.name}`, reused);
    group.done?.();
  }
}
