import { describe, expect, it } from "vitest";
import { memoByKey } from "../../src/model/memo-by-key.ts";

describe("memo-by-key", () => {
  it("should compute each key's value once and give the same value after", () => {
    const asked: string[] = [];
    const labels = memoByKey((lang: string) => {
      asked.push(lang);
      return { lang };
    });
    const english = labels("en");
    expect(labels("nl")).toEqual({ lang: "nl" });
    expect(labels("en")).toBe(english);
    expect(asked).toEqual(["en", "nl"]);
  });
});
