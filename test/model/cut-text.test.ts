import { describe, expect, it } from "vitest";
import { cutText, textLength } from "../../src/model/cut-text.ts";

describe("cutText", () => {
  it("should keep a text within the limit as it is", () => {
    expect(cutText("Repair Café", 11)).toBe("Repair Café");
    // Four emoji are four characters, eight UTF-16 units.
    expect(cutText("🎉🎉🎉🎉", 4)).toBe("🎉🎉🎉🎉");
  });

  it("should cut after a whole word near the limit, and mark the cut with an ellipsis", () => {
    expect(cutText("Open studio night with live music", 20)).toBe("Open studio night…");
    expect(textLength(cutText("word ".repeat(10_000), 300))).toBeLessThanOrEqual(300);
  });

  it("should cut a long word at a grapheme, never inside an emoji sequence or between a letter and its accent", () => {
    const family = "👩‍👩‍👧";
    expect(textLength(family)).toBe(5);
    expect(cutText(family.repeat(4), 12)).toBe(`${family}${family}…`);
    expect(cutText(`${"e\u0301".repeat(10)}`, 8)).toBe(`${"e\u0301".repeat(3)}…`);
    expect(cutText("x".repeat(10_000), 300)).toBe(`${"x".repeat(299)}…`);
  });

  it("should give well-formed text whatever is cut", () => {
    const cut = cutText("🎉".repeat(500), 101);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut).toBe(`${"🎉".repeat(100)}…`);
  });

  it("should cut text without spaces at a word where the language has words", () => {
    const cut = cutText("日本語のテキストを切る場合はどうなるでしょうか", 10);
    expect(textLength(cut)).toBeLessThanOrEqual(10);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("textLength", () => {
  it("should count code points, stopping past the limit it is asked about", () => {
    expect(textLength("a🎉b")).toBe(3);
    expect(textLength("🎉".repeat(1000), 10)).toBe(11);
  });
});
