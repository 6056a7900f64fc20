import { ConfigError } from "../errors.ts";

/**
 * SHARE_CARDS: which share cards the build draws (src/cards, docs/share-cards.md).
 *
 * - `all`: a 1200 x 630 card for the link preview of every page (Open Graph,
 *   X), and for each event three more in the shapes Google's event results
 *   ask for (16:9, 4:3, 1:1), named in the event's structured data: four
 *   files per event;
 * - `og`: the link preview card only, which the structured data names too:
 *   one file per event, for sites large enough that files or build time count;
 * - `off`: none; a page's preview shows the event's own image, if any.
 */
export const SHARE_CARDS_MODES = ["all", "og", "off"] as const;
export type ShareCardsMode = (typeof SHARE_CARDS_MODES)[number];

export interface CardsConfig {
  readonly mode: ShareCardsMode;
}

export function readCardsConfig(env: NodeJS.ProcessEnv): CardsConfig {
  const raw = env.SHARE_CARDS?.trim().toLowerCase() || "all";
  if (!(SHARE_CARDS_MODES as readonly string[]).includes(raw)) {
    throw new ConfigError(
      `SHARE_CARDS: expected ${SHARE_CARDS_MODES.join(", ")}, got "${env.SHARE_CARDS?.trim()}".`,
    );
  }
  return { mode: raw as ShareCardsMode };
}
