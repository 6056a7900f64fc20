import { type PortalOptions, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW } from "./clock.ts";
import { useForTests } from "./use-for-tests.ts";

/**
 * Runs `use` against the reference portal started with `options` on a free
 * loopback port at the tests' clock, and stops the portal however `use` ends.
 */
export async function withPortal<T>(
  options: PortalOptions,
  use: (portal: RunningPortal) => Promise<T>,
): Promise<T> {
  const portal = await startPortal({ port: 0, now: NOW, ...options });
  try {
    return await use(portal);
  } finally {
    await portal.close();
  }
}

/**
 * The reference portal for a describe block (or a whole file), started with
 * `options` on a free loopback port at the tests' clock before its tests and
 * stopped after them; the returned function gives it to the tests.
 */
export function usePortal(options: PortalOptions = {}): () => RunningPortal {
  return useForTests(
    "the portal",
    () => startPortal({ port: 0, now: NOW, ...options }),
    (portal) => portal.close(),
  );
}
