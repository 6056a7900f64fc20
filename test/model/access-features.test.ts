import { describe, expect, it } from "vitest";
import { readAccessFeatures } from "../../src/model/access-features.ts";
import { ACCESS_FEATURES } from "../../src/model/access-vocabulary.ts";
import { FieldReader } from "../../src/model/field-reader.ts";
import { RECORD_LIMITS } from "../../src/model/record-limits.ts";

/** What a portal's value reads as, and the notes it leaves for the record's warning. */
function read(raw: unknown) {
  const reader = new FieldReader();
  return { features: readAccessFeatures(raw, reader), notes: reader.notes };
}

describe("readAccessFeatures", () => {
  it("should know each feature of the vocabulary by its own id", () => {
    expect(read([...ACCESS_FEATURES]).features).toEqual(
      ACCESS_FEATURES.map((feature) => ({ feature })),
    );
  });

  it("should know the words editors write, in any case and spelling, English and Dutch", () => {
    expect(
      read([
        "Step-free access",
        "wheelchair_accessible",
        "Hearing Loop",
        "ringleiding",
        "BSL",
        "Audio-described",
        "Surtitles",
        "prikkelarm",
        "Guide dogs",
        "Rolstoeltoegankelijk toilet",
      ]).features,
    ).toEqual([
      { feature: "step-free-access" },
      { feature: "hearing-loop" },
      { feature: "sign-language" },
      { feature: "audio-description" },
      { feature: "captions" },
      { feature: "quiet-space" },
      { feature: "assistance-dogs" },
      { feature: "accessible-toilet" },
    ]);
  });

  it("should keep what the vocabulary has no word for as the portal's text, one line, once", () => {
    expect(
      read(["Large-print programmes\nat the door", "large print programmes at the door", "  "])
        .features,
    ).toEqual([{ text: "Large-print programmes at the door" }]);
  });

  it("should read records, one comma-separated line, and a record of flags", () => {
    expect(read([{ id: "hearing-loop" }, { name: "Quiet room" }]).features).toEqual([
      { feature: "hearing-loop" },
      { feature: "quiet-space" },
    ]);
    expect(read("step-free, captions").features).toEqual([
      { feature: "step-free-access" },
      { feature: "captions" },
    ]);
    expect(read({ hearingLoop: true, signLanguage: false, quietSpace: "yes" }).features).toEqual([
      { feature: "hearing-loop" },
    ]);
  });

  it("should read nothing from values that are no list of features", () => {
    for (const raw of [undefined, null, 42, true, [null, {}, 1]]) {
      expect(read(raw).features, String(raw)).toEqual([]);
    }
  });

  it("should publish markup as text, never as markup", () => {
    expect(read(['<img src=x onerror="alert(1)">Ramp at the side door']).features).toEqual([
      { text: '<img src=x onerror="alert(1)">Ramp at the side door' },
    ]);
  });

  it("should publish at most the record's limits, and say what it cut", () => {
    const many = Array.from({ length: 50 }, (_, i) => `Feature ${i}`);
    const { features, notes } = read(many);
    expect(features).toHaveLength(RECORD_LIMITS.accessFeatures);
    expect(notes).toEqual([
      `50 access features, the first ${RECORD_LIMITS.accessFeatures} are published`,
    ]);
    const long = read(["word ".repeat(200)]);
    const [first] = long.features;
    expect(first && "text" in first ? [...first.text].length : 0).toBeLessThanOrEqual(
      RECORD_LIMITS.accessText,
    );
    expect(long.notes).toEqual([
      `access feature: 999 characters, cut to ${RECORD_LIMITS.accessText}`,
    ]);
  });
});
