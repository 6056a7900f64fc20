import { readApiConfig } from "../../src/config/api.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import type { PortalSnapshot } from "../../src/model/types.ts";
import {
  type FetchedPortal,
  type LoadSnapshotOptions,
  loadSnapshot,
} from "../../src/snapshot/load-snapshot.ts";
import type { ProgressSink } from "../../src/snapshot/progress.ts";

/** The build's snapshot stage with the settings in `env`, as `npm run build` runs it. */
export function fetchPortal(
  env: NodeJS.ProcessEnv,
  options: Pick<LoadSnapshotOptions, "signal" | "onEvent" | "onListed"> & {
    sink?: ProgressSink;
  } = {},
): Promise<FetchedPortal> {
  const site = readSiteConfig(env);
  return loadSnapshot({
    ...options,
    config: readApiConfig(env),
    defaultTimeZone: site.timeZone,
    now: site.now.toJSDate(),
    sink: options.sink ?? null,
  });
}

/** The snapshot alone. */
export async function snapshotOf(
  env: NodeJS.ProcessEnv,
  options: { sink?: ProgressSink; signal?: AbortSignal } = {},
): Promise<PortalSnapshot> {
  return (await fetchPortal(env, options)).snapshot;
}

/** A progress sink that records everything written to it. */
export function progressRecorder(isTTY = false): {
  write(text: string): void;
  isTTY: boolean;
  text(): string;
} {
  const chunks: string[] = [];
  return { isTTY, write: (text) => void chunks.push(text), text: () => chunks.join("") };
}
