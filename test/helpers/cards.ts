import { CardWriter } from "../../src/cards/card-content.ts";
import type { Calendar } from "../../src/model/types.ts";

/** A calendar and a card writer for the share card tests (test/cards). */
export const CARD_CALENDAR: Calendar = {
  id: "music",
  name: "Music",
  description: "",
  timeZone: "Europe/Amsterdam",
  color: "#862e9c",
  updatedAt: null,
};

export const cardWriter = new CardWriter({
  lang: "en-GB",
  title: "Buurtleven",
  description: "",
  address: "events.example.org",
});
