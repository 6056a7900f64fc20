import { describe, expect, it } from "vitest";
import { AUTO_ALL_MAX_EVENTS, eventCardShapes, readCardsConfig } from "../../src/config/cards.ts";
import { ConfigError } from "../../src/errors.ts";

describe("SHARE_CARDS", () => {
  it("should default to auto, and read the other modes whatever their case", () => {
    expect(readCardsConfig({}).mode).toBe("auto");
    expect(readCardsConfig({ SHARE_CARDS: " OG " }).mode).toBe("og");
    expect(readCardsConfig({ SHARE_CARDS: "all" }).mode).toBe("all");
    expect(readCardsConfig({ SHARE_CARDS: "off" }).mode).toBe("off");
  });

  it("should refuse an unknown mode with one line naming the variable and the choices", () => {
    expect(() => readCardsConfig({ SHARE_CARDS: "some" })).toThrow(ConfigError);
    expect(() => readCardsConfig({ SHARE_CARDS: "some" })).toThrow(
      /^SHARE_CARDS: expected auto, all, og, off, got "some"\.$/,
    );
  });

  it("should give events their cards 60 days ahead unless SHARE_CARDS_DAYS says otherwise", () => {
    expect(readCardsConfig({}).days).toBe(60);
    expect(readCardsConfig({ SHARE_CARDS_DAYS: " 14 " }).days).toBe(14);
    for (const wrong of ["0", "-3", "1.5", "soon"]) {
      expect(() => readCardsConfig({ SHARE_CARDS_DAYS: wrong })).toThrow(
        new RegExp(`^SHARE_CARDS_DAYS: expected a positive whole number, got "${wrong}"\\.$`),
      );
    }
  });

  it("should draw every shape under auto up to its limit of event pages, the preview card only above", () => {
    expect(eventCardShapes("auto", 0)).toBe("all");
    expect(eventCardShapes("auto", AUTO_ALL_MAX_EVENTS)).toBe("all");
    expect(eventCardShapes("auto", AUTO_ALL_MAX_EVENTS + 1)).toBe("og");
    // A mode that is asked for holds at any size.
    expect(eventCardShapes("all", 100_000)).toBe("all");
    expect(eventCardShapes("og", 10)).toBe("og");
  });
});
