import { describe, expect, it } from "vitest";
import { FixedTexts } from "../../src/publish/fixed-texts.ts";
import { contentHash, HASH_LENGTH } from "../../src/short-hash.ts";

describe("FixedTexts", () => {
  it("should give back every text set at its place, past the room it started with", () => {
    const texts = new FixedTexts(HASH_LENGTH, 4);
    const hashes = Array.from({ length: 1000 }, (_, at) => contentHash(`file ${at}`));
    // Set out of order, every third place left with none.
    for (let at = hashes.length - 1; at >= 0; at--) {
      if (at % 3 !== 0) texts.set(at, hashes[at]);
    }
    for (const [at, hash] of hashes.entries()) {
      expect(texts.get(at)).toBe(at % 3 === 0 ? undefined : hash);
    }
    expect(texts.get(5000)).toBeUndefined();
  });

  it("should keep a text of another length or past ASCII as it is, and let a place be set again", () => {
    const texts = new FixedTexts(HASH_LENGTH);
    const odd = [
      "short",
      "x".repeat(HASH_LENGTH + 1),
      `é${"a".repeat(HASH_LENGTH - 1)}`,
      `\u0000${"a".repeat(HASH_LENGTH - 1)}`,
      `\u007f${"a".repeat(HASH_LENGTH - 1)}`,
      "",
    ];
    for (const [at, text] of odd.entries()) texts.set(at, text);
    for (const [at, text] of odd.entries()) expect(texts.get(at)).toBe(text);
    // A place set again: from aside to bytes, from bytes to none.
    const hash = contentHash("again");
    texts.set(0, hash);
    expect(texts.get(0)).toBe(hash);
    texts.set(0, undefined);
    expect(texts.get(0)).toBeUndefined();
  });
});
