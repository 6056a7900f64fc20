import { expect } from "vitest";
import { ConfigError } from "../../src/errors.ts";

/**
 * The one line a reader of settings refuses them with: `read` must throw a
 * ConfigError whose message is a single line (a user's mistake gets one line).
 */
export function configRefusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected the settings to be refused");
}
