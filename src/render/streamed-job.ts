import { count, timed } from "../metrics.ts";
import type { FileWriter } from "./file-writer.ts";
import type { PageTemplate } from "./page-template.ts";

type Data = Record<string, unknown>;

/** An output with one file per item, written by a function rather than a template. */
export interface StreamedOutput<T = unknown> {
  /** For counters and error messages, e.g. "event.ics". */
  readonly name: string;
  items(data: Data): readonly T[];
  /** Output path relative to the output folder. */
  path(item: T, data: Data): string;
  render(item: T, data: Data): string;
}

interface Unit {
  readonly name: string;
  readonly items: readonly unknown[];
  /** Index of the unit's first item in the job's index space. */
  readonly offset: number;
  render(item: unknown, index: number): { path: string; content: string };
}

/**
 * Every file of the streamed outputs, numbered 0..total-1 (each template's
 * pages, then each writer's files), so that threads can share the work by
 * claiming ranges of numbers: whoever is free takes the next range.
 */
export class StreamedJob {
  readonly #units: readonly Unit[];
  readonly total: number;

  constructor(templates: readonly PageTemplate[], outputs: readonly StreamedOutput[], data: Data) {
    const units: Unit[] = [];
    let offset = 0;
    for (const template of templates) {
      const items = template.items(data);
      units.push({
        name: template.template,
        items,
        offset,
        render: (item, index) => {
          const page = template.render(data, item, index);
          return { path: page.outputPath, content: page.content };
        },
      });
      offset += items.length;
    }
    for (const output of outputs) {
      const items = output.items(data);
      units.push({
        name: output.name,
        items,
        offset,
        render: (item) => ({ path: output.path(item, data), content: output.render(item, data) }),
      });
      offset += items.length;
    }
    this.#units = units;
    this.total = offset;
  }

  /** "name:count" per unit: two threads agree on the work only when these match. */
  get shape(): string {
    return this.#units.map((unit) => `${unit.name}:${unit.items.length}`).join(",");
  }

  /** Renders and writes files [from, to). */
  renderRange(from: number, to: number, writer: FileWriter): void {
    for (const unit of this.#units) {
      const start = Math.max(from, unit.offset);
      const end = Math.min(to, unit.offset + unit.items.length);
      for (let i = start; i < end; i++) {
        const index = i - unit.offset;
        const file = unit.render(unit.items[index], index);
        timed("write", () => writer.write(file.path, file.content));
      }
      if (end > start) count(`rendered.${unit.name}`, end - start);
    }
  }
}

/** Files per claim: large enough that claiming costs nothing, small enough to balance. */
const CLAIM_CHUNK = 64;

/**
 * Claims ranges of the job's files from the counter shared by every thread of
 * the build, renders and writes them, until no file is left.
 */
export function claimAndRender(job: StreamedJob, writer: FileWriter, claims: Int32Array): void {
  for (;;) {
    const from = Atomics.add(claims, 0, CLAIM_CHUNK);
    if (from >= job.total) return;
    job.renderRange(from, Math.min(job.total, from + CLAIM_CHUNK), writer);
  }
}
