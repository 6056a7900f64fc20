import { describe, expect, it } from "vitest";
import { wellFormedText } from "../../src/model/well-formed-text.ts";

describe("wellFormedText", () => {
  it("should replace lone surrogates with U+FFFD, so that URLs and UTF-8 can carry the text", () => {
    const text = wellFormedText("Broken \ud800 title \udc00 end\ud83d");
    expect(text).toBe("Broken \ufffd title \ufffd end\ufffd");
    expect(() => encodeURIComponent(text)).not.toThrow();
  });

  it("should keep surrogate pairs, so emoji and other astral characters stay", () => {
    const text = "Party 🎉 with the 👩‍👩‍👧 family 𝄞";
    expect(wellFormedText(text)).toBe(text);
  });

  it("should replace the noncharacters XML forbids, U+FFFE and U+FFFF", () => {
    expect(wellFormedText("a\ufffeb\uffffc")).toBe("a\ufffdb\ufffdc");
  });
});
