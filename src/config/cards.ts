import { envSettings } from "./env-settings.ts";
import { readChoice } from "./read-choice.ts";

/**
 * SHARE_CARDS: which share cards the build draws (src/cards, docs/share-cards.md).
 *
 * - `all`: a 1200 x 630 card for the link preview of every page (Open Graph,
 *   X), and for each event three more in the shapes Google's event results
 *   ask for (16:9, 4:3, 1:1), named in the event's structured data: four
 *   files per event;
 * - `og`: the link preview card only, which the structured data names too:
 *   one file per event, for sites large enough that files or build time count;
 * - `off`: none; a page's preview shows the event's own image, if any;
 * - `auto` (the default): `all` for a site of up to AUTO_ALL_MAX_EVENTS events
 *   not ended (the pages with cards of their own), `og` above. Google's
 *   three shapes cost about twice the link preview card's drawing: worth it
 *   where a cold build stays short, not on a site of many thousands of
 *   events, whose cold build they would make 2.9 times as long
 *   (docs/share-cards.md, measured with npm run bench).
 *
 * An event that has ended gets no card in any mode (src/cards/share-cards.ts).
 */
export const SHARE_CARDS_MODES = ["auto", "all", "og", "off"] as const;
export type ShareCardsMode = (typeof SHARE_CARDS_MODES)[number];

/** Up to this many events not ended, SHARE_CARDS=auto draws every shape; above, the link preview card only. */
export const AUTO_ALL_MAX_EVENTS = 2_500;

/** The cards a build draws for each event not ended: `all` (four shapes) or `og` (one). */
export function eventCardShapes(
  mode: Exclude<ShareCardsMode, "off">,
  eventsNotEnded: number,
): "all" | "og" {
  if (mode !== "auto") return mode;
  return eventsNotEnded <= AUTO_ALL_MAX_EVENTS ? "all" : "og";
}

export interface CardsConfig {
  readonly mode: ShareCardsMode;
}

/** What readCardsConfig reads. */
export const CARDS_SETTINGS = envSettings("Site", ["SHARE_CARDS"]);

export function readCardsConfig(env: NodeJS.ProcessEnv): CardsConfig {
  return { mode: readChoice("SHARE_CARDS", env.SHARE_CARDS, SHARE_CARDS_MODES, "auto") };
}
