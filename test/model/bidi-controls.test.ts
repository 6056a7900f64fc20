import { describe, expect, it } from "vitest";
import { tameBidiControls } from "../../src/model/bidi-controls.ts";

const [LRE, RLE, PDF, LRO, RLO] = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e"];
const [LRI, RLI, FSI, PDI] = ["\u2066", "\u2067", "\u2068", "\u2069"];

describe("tameBidiControls", () => {
  it("should remove every embedding and override, and their terminator", () => {
    expect(tameBidiControls(`Tickets ${RLO}eerf${PDF}`)).toBe("Tickets eerf");
    expect(tameBidiControls(`${LRE}a${RLE}b${LRO}c${PDF}${PDF}${PDF}`)).toBe("abc");
  });

  it("should keep balanced isolates, which cannot reorder the text around them", () => {
    const name = `Festival ${RLI}مهرجان الربيع${PDI} in the park`;
    expect(tameBidiControls(name)).toBe(name);
    const nested = `${FSI}a${LRI}b${PDI}c${PDI}`;
    expect(tameBidiControls(nested)).toBe(nested);
  });

  it("should close isolates left open at the end of the text, and drop closers without an opener", () => {
    expect(tameBidiControls(`${RLI}open ${FSI}twice`)).toBe(`${RLI}open ${FSI}twice${PDI}${PDI}`);
    expect(tameBidiControls(`a${PDI}b${LRI}c${PDI}${PDI}`)).toBe(`ab${LRI}c${PDI}`);
  });

  it("should leave text without controls as it is, marks (LRM, RLM) included", () => {
    const text = "Café \u200e(19:30)\u200f";
    expect(tameBidiControls(text)).toBe(text);
  });
});
