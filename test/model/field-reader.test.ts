import { describe, expect, it } from "vitest";
import { textLength } from "../../src/model/cut-text.ts";
import { FieldReader } from "../../src/model/field-reader.ts";

describe("FieldReader", () => {
  it("should keep a cut text's isolates closed, within its limit", () => {
    // A right-to-left name in an isolate (RLI ... PDI) that the cut falls inside.
    const text = `Toegang \u2067${"حديقة ".repeat(60)}\u2069 achter`;
    const read = new FieldReader();
    const cut = read.text(text, "access feature", 200);
    expect(textLength(cut)).toBeLessThanOrEqual(200);
    expect(cut.match(/\u2069/g)?.length).toBe(1);
    expect(cut.indexOf("\u2069")).toBeGreaterThan(cut.indexOf("\u2067"));
    expect(read.notes).toEqual([`access feature: ${textLength(text)} characters, cut to 200`]);
  });
});
