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

/** A whole number above zero; unset or blank, its default. Anything else is a ConfigError naming the setting. */
export function readPositiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`${name}: expected a positive whole number, got "${raw}".`);
  }
  return value;
}
