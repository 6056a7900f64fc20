import { type Messages, messagesFor, translate } from "../i18n/messages.ts";
import { memoByKey } from "../model/memo-by-key.ts";
import type { Calendar, CalendarEvent, Category } from "../model/types.ts";
import { formatWhen } from "../site/format.ts";

/**
 * What a share card says: the inputs of its picture, and nothing else. A
 * card's file is a pure function of this value, its size, the fonts and the
 * layout's version (src/cards/card-key.ts), so two builds that give the same
 * content reuse one rendering.
 *
 * Few words in big type, so that a card stays readable as a thumbnail in a
 * chat: a label, the title, at most two lines (when and where, or a
 * description) and the organization's name. Text is plain text from the
 * portal, drawn as text: nothing in it is markup.
 */
export interface CardContent {
  /** BCP 47 tag of the text (SITE_LANG): hyphenation and glyph choice follow it. */
  readonly lang: string;
  /** Above the title: the calendar's name, or what kind of page this is. */
  readonly label: string;
  readonly title: string;
  /** What the pages' badges say of the event ("Cancelled", "Postponed", "New date"); null for none. */
  readonly badge: CardBadge | null;
  /** Below the title: when and where, or a description. */
  readonly lines: readonly string[];
  /** The organization's name (SITE_TITLE), at the foot. */
  readonly footer: string;
  /** Band colours ("#rrggbb"): the calendar's, or every calendar's on the site's card. */
  readonly colors: readonly string[];
  /** The event's image as the site published it (src/media/localize-images.ts), or null. */
  readonly image: CardImage | null;
}

export interface CardBadge {
  readonly kind: "cancelled" | "postponed" | "newDate" | "moved";
  readonly text: string;
}

export interface CardImage {
  /** The published file's name, a hash of its bytes ("ab12….jpg"): the image's identity. */
  readonly name: string;
  /** Where the build keeps the bytes it downloaded (never fetched again for a card). */
  readonly cachePath: string;
}

/** Longest texts kept, in characters (graphemes): the layout clips visually as well. */
export const TEXT_LIMITS = { label: 60, title: 120, line: 110, footer: 60 } as const;

const ELLIPSIS = "…";
const graphemeSegmenter = memoByKey(
  (lang: string) => new Intl.Segmenter(lang, { granularity: "grapheme" }),
);

/**
 * `text` with white space collapsed, cut to at most `max` characters with an
 * ellipsis, never inside a character (a grapheme: an emoji with modifiers or
 * a letter with combining accents stays whole), and at a word boundary when
 * one is near. The layout clips to its lines too; this bounds the work a
 * 10,000-character title would cost and keeps the cut where a reader expects it.
 */
export function clipText(text: string, max: number, lang = "en"): string {
  const clean = withoutPictographs(text).replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const graphemes: string[] = [];
  for (const { segment } of graphemeSegmenter(lang).segment(clean)) {
    graphemes.push(segment);
    if (graphemes.length > max) break;
  }
  if (graphemes.length <= max) return clean;
  const kept = graphemes.slice(0, max - 1).join("");
  // Back to the last space when it is in the last fifth: "a long title…", not "a long ti…".
  const space = kept.lastIndexOf(" ");
  const cut = space >= kept.length * 0.8 ? kept.slice(0, space) : kept;
  return `${cut.replace(/[\s,;:.–—-]+$/u, "")}${ELLIPSIS}`;
}

/**
 * Emoji and other pictographs, which the cards' fonts do not draw (they would
 * show as empty boxes): left out, with what joins and modifies them. Symbols
 * the fonts have (©, ®, ™, arrows) stay.
 */
const PICTOGRAPHS =
  /(?=[\u{2300}-\u{10FFFF}])\p{Extended_Pictographic}|[\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]|\uFE0F|\u200D|\u20E3/gu;

export function withoutPictographs(text: string): string {
  return text.replace(PICTOGRAPHS, "");
}

/** What every card of a site shares: its language and name. */
export interface CardSite {
  readonly lang: string;
  readonly title: string;
  readonly description: string;
  /** Where the site is, as a reader would type it ("events.example.org"): the site's card's foot. */
  readonly address: string;
}

/**
 * Builds the cards' content for one site: the texts in the site's language,
 * dates formatted as the pages format them (src/site/format.ts), in the
 * event's own zone.
 */
export class CardWriter {
  readonly #site: CardSite;
  readonly #messages: Messages;
  readonly #when: (event: CalendarEvent, lang: string) => string;

  /** `when`: formatWhen, or what gives its text without working it out (src/cards/card-dates.ts). */
  constructor(site: CardSite, when: (event: CalendarEvent, lang: string) => string = formatWhen) {
    this.#site = site;
    this.#messages = messagesFor(site.lang);
    this.#when = when;
  }

  event(
    event: CalendarEvent,
    calendar: Calendar,
    color: string,
    image: CardImage | null,
  ): CardContent {
    const { lang } = this.#site;
    return this.#content({
      label: calendar.name,
      title: event.title,
      badge: this.#badge(event),
      lines: [this.#when(event, lang), this.#where(event)],
      colors: [color],
      image,
    });
  }

  calendar(calendar: Calendar, color: string): CardContent {
    return this.#content({
      label: this.#t("calendarLabel"),
      title: calendar.name,
      badge: null,
      lines: [calendar.description],
      colors: [color],
      image: null,
    });
  }

  category(category: Category, colors: readonly string[]): CardContent {
    return this.#content({
      label: this.#t("categories"),
      title: this.#t("eventsInCategory", { name: category.name }),
      badge: null,
      lines: [],
      colors,
      image: null,
    });
  }

  /** The home page's card, and every page's that has none of its own. */
  site(colors: readonly string[]): CardContent {
    return this.#content({
      label: this.#t("upcomingEvents"),
      title: this.#site.title,
      badge: null,
      lines: [this.#site.description],
      colors,
      image: null,
      footer: this.#site.address,
    });
  }

  #content(parts: Omit<CardContent, "lang" | "footer"> & { footer?: string }): CardContent {
    const { lang } = this.#site;
    return {
      lang,
      label: clipText(parts.label, TEXT_LIMITS.label, lang),
      title: clipText(parts.title, TEXT_LIMITS.title, lang),
      badge: parts.badge,
      lines: parts.lines
        .map((line) => clipText(line, TEXT_LIMITS.line, lang))
        .filter((line) => line !== ""),
      footer: clipText(parts.footer ?? this.#site.title, TEXT_LIMITS.footer, lang),
      colors: parts.colors,
      image: parts.image,
    };
  }

  /** The same words the pages' badges use. */
  #badge(event: CalendarEvent): CardBadge | null {
    const removed = event.history?.removed;
    if (removed?.kind === "moved") {
      return { kind: "moved", text: this.#t("movedTo", { name: removed.calendarName }) };
    }
    if (event.status === "cancelled")
      return { kind: "cancelled", text: this.#t("statusCancelled") };
    if (event.status === "postponed")
      return { kind: "postponed", text: this.#t("statusPostponed") };
    if (event.history?.newDate) return { kind: "newDate", text: this.#t("newDate") };
    return null;
  }

  /** The place's name (else its address), and whether it is online. */
  #where(event: CalendarEvent): string {
    const place = event.location?.name ?? event.location?.address?.formatted ?? "";
    const online =
      event.attendanceMode === "online"
        ? this.#t("onlineEvent")
        : event.attendanceMode === "mixed"
          ? this.#t("hybridEvent")
          : "";
    return [place, online].filter(Boolean).join(" · ");
  }

  #t(key: string, values?: Record<string, unknown>): string {
    return translate(this.#messages, key, values);
  }
}

/** The card's text in reading order: its `og:image:alt`. */
export function cardAltText(content: CardContent): string {
  return [content.label, content.badge?.text, content.title, ...content.lines, content.footer]
    .filter(Boolean)
    .join(" · ");
}
