import { describe, expect, it } from "vitest";
import { WIRE_DEPTH_LIMIT, withinWireDepth } from "../../src/model/wire-depth.ts";

/** `depth` arrays around a string. */
function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("withinWireDepth", () => {
  it("should keep records of real depth as they are", () => {
    const record = { data: { attributes: { location: { address: { street: "Main 1" } } } } };
    expect(withinWireDepth(structuredClone(record))).toEqual(record);
    expect(withinWireDepth(nested(WIRE_DEPTH_LIMIT))).toEqual(nested(WIRE_DEPTH_LIMIT));
  });

  it("should cut what nests deeper, so that JSON.stringify and other recursive code can read the rest", () => {
    const deep = JSON.parse(`{"id":"e1","extra":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const cut = withinWireDepth(deep) as { id: string; extra: unknown };
    expect(cut.id).toBe("e1");
    expect(JSON.stringify(cut)).toBe(`{"id":"e1","extra":${"[".repeat(63)}null${"]".repeat(63)}}`);
  });
});
