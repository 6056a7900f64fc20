import { afterAll, beforeAll } from "vitest";

/**
 * What `start` makes (a server, a portal, a built site), for the tests of
 * one describe block (call it in the block) or of a whole file: made before
 * the tests, given to `stop` after them. The function returned gives it to a
 * test, and fails one that asks before it is made (`what` names it).
 */
export function useForTests<T>(
  what: string,
  start: () => Promise<T>,
  stop: (made: T) => Promise<unknown> | unknown,
): () => T {
  let made: { value: T } | undefined;
  beforeAll(async () => {
    made = { value: await start() };
  });
  afterAll(async () => {
    if (made) await stop(made.value);
  });
  return () => {
    if (!made) throw new Error(`${what} is made before the tests`);
    return made.value;
  };
}
