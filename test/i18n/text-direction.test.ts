import { describe, expect, it } from "vitest";
import { directionOfText, textDirection } from "../../src/i18n/text-direction.ts";

describe("text-direction", () => {
  describe("textDirection", () => {
    it("should run Arabic, Hebrew, Persian and Urdu sites right to left, with or without a region", () => {
      for (const tag of ["ar", "ar-EG", "he", "he-IL", "fa", "ur", "yi"]) {
        expect(textDirection(tag), tag).toBe("rtl");
      }
    });

    it("should follow the script where a tag names one, and where Intl's own data is out of date", () => {
      // Azerbaijani in Arabic script; Dhivehi, written in Thaana, for which ICU says "ltr".
      expect(textDirection("az-Arab")).toBe("rtl");
      expect(textDirection("dv")).toBe("rtl");
      expect(textDirection("az")).toBe("ltr");
    });

    it("should run the other languages of the site left to right", () => {
      for (const tag of ["en", "en-GB", "nl", "de", "fr", "es", "it", "pt-BR", "pl", "ja"]) {
        expect(textDirection(tag), tag).toBe("ltr");
      }
    });
  });

  describe("directionOfText", () => {
    it("should take the direction of the first letter, as dir=auto does", () => {
      expect(directionOfText("حفلة Jazz", "ltr")).toBe("rtl");
      expect(directionOfText("Jazz حفلة", "rtl")).toBe("ltr");
      expect(directionOfText("2026: שלום", "ltr")).toBe("rtl");
      expect(directionOfText("東京ジャズ", "rtl")).toBe("ltr");
    });

    it("should leave text without a letter to the page's direction", () => {
      expect(directionOfText("12:00–14:00", "rtl")).toBe("rtl");
      expect(directionOfText("", "ltr")).toBe("ltr");
    });
  });
});
