import { ConfigError } from "../errors.ts";

/**
 * A setting that takes one of a few words, in any case; unset or blank, its
 * default. Any other value is a ConfigError naming the setting, the words it
 * takes and what it was given.
 */
export function readChoice<T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  const value = raw?.trim().toLowerCase() || fallback;
  if (!(choices as readonly string[]).includes(value)) {
    const expected = choices.length === 2 ? choices.join(" or ") : choices.join(", ");
    throw new ConfigError(`${name}: expected ${expected}, got "${raw?.trim()}".`);
  }
  return value as T;
}
