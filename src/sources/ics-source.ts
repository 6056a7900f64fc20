import type { IcsSourceConfig } from "../config/sources.ts";
import { ConfigError } from "../errors.ts";
import type { FetchedPortal } from "../snapshot/load-snapshot.ts";
import type { ProgressSink } from "../snapshot/progress.ts";

export interface IcsLoadOptions {
  readonly defaultTimeZone: string;
  readonly now: Date;
  readonly sink: ProgressSink | null;
  readonly signal?: AbortSignal;
}

export async function loadIcsSource(
  source: IcsSourceConfig,
  _options: IcsLoadOptions,
): Promise<FetchedPortal> {
  throw new ConfigError(`source "${source.id}": iCalendar sources are not read yet.`);
}
