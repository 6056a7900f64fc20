import { describe, expect, it } from "vitest";
import { DEFAULT_INDEXNOW_ENDPOINT, readIndexNowConfig } from "../../src/config/indexnow.ts";
import { ConfigError } from "../../src/errors.ts";

describe("indexnow", () => {
  it("should be off without a key, and send to the shared endpoint with one", () => {
    expect(readIndexNowConfig({})).toBeNull();
    expect(readIndexNowConfig({ INDEXNOW_KEY: " abcd-1234 " })).toEqual({
      key: "abcd-1234",
      endpoint: DEFAULT_INDEXNOW_ENDPOINT,
    });
    expect(
      readIndexNowConfig({ INDEXNOW_KEY: "abcd1234", INDEXNOW_ENDPOINT: "http://127.0.0.1:8/in" })
        ?.endpoint,
    ).toBe("http://127.0.0.1:8/in");
  });

  it.each([
    [{ INDEXNOW_KEY: "short" }, /^INDEXNOW_KEY: expected 8 to 128/],
    [{ INDEXNOW_KEY: "a".repeat(129) }, /^INDEXNOW_KEY: expected 8 to 128/],
    [{ INDEXNOW_KEY: "abcd_1234/x" }, /with others among them/],
    [{ INDEXNOW_ENDPOINT: DEFAULT_INDEXNOW_ENDPOINT }, /INDEXNOW_KEY is not/],
    [{ INDEXNOW_KEY: "abcd1234", INDEXNOW_ENDPOINT: "http://engine.example/" }, /not an https/],
  ])("should refuse %j in one line", (env, message) => {
    expect(() => readIndexNowConfig(env)).toThrow(ConfigError);
    expect(() => readIndexNowConfig(env)).toThrow(message);
  });
});
