import { describe, expect, it } from "vitest";
import { benchEnv } from "../../bench/build.ts";

/**
 * A benchmark build gets the benchmark's settings and none of the shell's:
 * a setting left there (PAGE_RECORD=on, EVENT_EMBEDS=off) would change what
 * the figures measure without their saying so.
 */
describe("benchEnv", () => {
  it("should leave out every project setting of the shell, and keep the benchmark's and the rest", () => {
    const shell = {
      PAGE_RECORD: "on",
      EVENT_EMBEDS: "off",
      ICS_MAX_BYTES: "1000",
      SHARE_CARDS_DAYS: "3",
      ACCESSIBILITY_CONTACT: "a@example.org",
      EVENT_API_TOKEN: "from the shell",
      DEBUG: "Eleventy*",
      PATH: "/usr/local/bin:/usr/bin",
      LANG: "C.UTF-8",
    };
    const env = benchEnv({ EVENT_API_TOKEN: "the benchmark's", SHARE_CARDS: "off" }, shell);
    for (const name of [
      "PAGE_RECORD",
      "EVENT_EMBEDS",
      "ICS_MAX_BYTES",
      "SHARE_CARDS_DAYS",
      "ACCESSIBILITY_CONTACT",
      "DEBUG",
    ]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(env.EVENT_API_TOKEN).toBe("the benchmark's");
    expect(env.SHARE_CARDS).toBe("off");
    expect(env.PATH).toBe(shell.PATH);
    expect(env.LANG).toBe("C.UTF-8");
  });
});
