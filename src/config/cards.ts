import { envSettings } from "./env-settings.ts";
import { readChoice, readPositiveInt } from "./read-setting.ts";

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
 * In every mode, an event gets a card of its own only from SHARE_CARDS_DAYS
 * days before its start day until it ends; before and after, its page
 * shares its calendar's (src/cards/share-cards.ts).
 */
export const SHARE_CARDS_MODES = ["auto", "all", "og", "off"] as const;
export type ShareCardsMode = (typeof SHARE_CARDS_MODES)[number];

/** Up to this many events with cards of their own, SHARE_CARDS=auto draws every shape; above, the link preview card only. */
export const AUTO_ALL_MAX_EVENTS = 2_500;

/**
 * SHARE_CARDS_DAYS' default: an event gets its card two months before the
 * day it starts. Links to an event are shared in the weeks before it far
 * more than months ahead, and a card costs CPU time at every cold build
 * (docs/share-cards.md, "Which pages have which card").
 */
export const DEFAULT_CARD_DAYS = 60;

/** The cards a build draws for each event with cards of its own: `all` (four shapes) or `og` (one). */
export function eventCardShapes(
  mode: Exclude<ShareCardsMode, "off">,
  eventsWithCards: number,
): "all" | "og" {
  if (mode !== "auto") return mode;
  return eventsWithCards <= AUTO_ALL_MAX_EVENTS ? "all" : "og";
}

export interface CardsConfig {
  readonly mode: ShareCardsMode;
  /** SHARE_CARDS_DAYS: how many days before its start day an event gets its card. */
  readonly days: number;
}

/** What readCardsConfig reads. */
export const CARDS_SETTINGS = envSettings("Site", ["SHARE_CARDS", "SHARE_CARDS_DAYS"]);

export function readCardsConfig(env: NodeJS.ProcessEnv): CardsConfig {
  return {
    mode: readChoice("SHARE_CARDS", env.SHARE_CARDS, SHARE_CARDS_MODES, "auto"),
    days: readPositiveInt(env, "SHARE_CARDS_DAYS", DEFAULT_CARD_DAYS),
  };
}
