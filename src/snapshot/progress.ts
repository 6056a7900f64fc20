import { formatMs } from "../api/errors.ts";
import type { FetchPhase, FetchProgress, FetchStats } from "../api/portal-client.ts";

/** Where progress goes: stderr by default; a TTY gets a live bar, anything else a line per phase. */
export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface SummaryFigures {
  readonly calendars: number;
  readonly events: number;
  readonly warnings: number;
  readonly stats: FetchStats;
  readonly elapsedMs: number;
}

const LABELS: Readonly<Record<FetchPhase, string>> = {
  calendars: "calendars",
  events: "event lists",
  details: "event details",
};

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export class ProgressReporter {
  readonly #sink: ProgressSink | null;
  #barShown = false;
  #lastDraw = 0;

  constructor(sink: ProgressSink | null) {
    this.#sink = sink;
  }

  update(progress: FetchProgress): void {
    const sink = this.#sink;
    if (!sink) return;
    const complete = progress.done >= progress.total;
    if (!sink.isTTY) {
      if (complete)
        sink.write(`Portal: ${LABELS[progress.phase]} ${progress.done}/${progress.total}\n`);
      return;
    }
    const now = Date.now();
    if (!complete && now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    const share = progress.total === 0 ? 1 : progress.done / progress.total;
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}`;
    sink.write(
      `\r\x1b[2KPortal: [${bar}] ${LABELS[progress.phase]} ${progress.done}/${progress.total}`,
    );
    this.#barShown = true;
  }

  warn(message: string): void {
    this.#line(`warning: ${message}`);
  }

  /** A message that must not be missed (stale data in use). */
  alert(message: string): void {
    this.#line(`\n!!! ${message}\n`);
  }

  summary(figures: SummaryFigures): string {
    const { stats } = figures;
    const line = [
      `Portal: ${figures.calendars} calendars, ${figures.events} events`,
      `${stats.requests} requests (${stats.retries} retries, ${stats.notModified} not modified, ${stats.cacheHits} from cache)`,
      `${stats.detailsReused} details reused`,
      `${figures.warnings} warnings`,
      formatMs(figures.elapsedMs),
    ].join(", ");
    this.#line(line);
    return line;
  }

  #line(text: string): void {
    const sink = this.#sink;
    if (!sink) return;
    if (this.#barShown) {
      sink.write("\r\x1b[2K");
      this.#barShown = false;
    }
    sink.write(`${text}\n`);
  }
}
