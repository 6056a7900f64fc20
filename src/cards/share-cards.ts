import { basename, join } from "node:path";
import { type CardsConfig, eventCardShapes, type ShareCardsMode } from "../config/cards.ts";
import type { SiteConfig } from "../config/site.ts";
import { endedBefore, startMillis } from "../model/event-times.ts";
import type { Calendar, CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup } from "../render/file-group.ts";
import { eventShardKey, owns, type Shard, type ShardKey, WHOLE_BUILD } from "../shards/shard.ts";
import { calendarColor } from "../site/calendar-colors.ts";
import type { SiteData } from "../site/load.ts";
import { type CardContent, type CardImage, CardWriter, cardAltText } from "./card-content.ts";
import { CardDates } from "./card-dates.ts";
import { type CardSize, OG_SIZE, STRUCTURED_DATA_SIZES } from "./card-layout.ts";
import { type CardFile, CardStudio } from "./card-studio.ts";

/**
 * The share cards of one build: which page shows which card, which cards an
 * event's structured data names, and the files to publish. Every card is
 * asked of the studio (src/cards/card-studio.ts) as soon as this is made, so
 * rendering runs while Eleventy renders the pages; the files are written
 * after, under `/cards/<key>.png` (named by what they show: a changed card
 * is a new address, which link previews then fetch anew).
 *
 * Cards: every page of an event that has not ended and starts within
 * SHARE_CARDS_DAYS days (also of a deleted or moved one), every calendar
 * (its lists and months share one, and so do the pages of its other
 * events), every category with a page, and the site (the home page and
 * every other page). Links to an event are shared in the weeks before it
 * far more than months ahead or after it, Google shows no past event in
 * its results, and a portal's archive and far future are often larger
 * than its next weeks (docs/share-cards.md, "Which pages have which card").
 * Which events have cards moves only at midnight in the site's zone, a
 * moment the rebuild check already builds at (src/rebuild/next-change.ts),
 * and at an event's end, another.
 *
 * In a split build (src/shards) every shard knows every card's address, for
 * its pages, and draws and writes only the cards of its share.
 */

/**
 * What a build draws its cards with: one studio per process, the cards'
 * dates as the last build wrote them, SHARE_CARDS and SHARE_CARDS_DAYS.
 */
export interface ShareCardsSetup {
  readonly studio: CardStudio;
  readonly dates: CardDates;
  readonly mode: Exclude<ShareCardsMode, "off">;
  readonly days: number;
}

/** The studio for SHARE_CARDS, keeping cards in `cacheDir`/cards; null with SHARE_CARDS=off. */
export async function openShareCards(
  cacheDir: string,
  { mode, days }: CardsConfig,
): Promise<ShareCardsSetup | null> {
  if (mode === "off") return null;
  const studio = await CardStudio.open(join(cacheDir, "cards"));
  return { studio, dates: CardDates.load(cacheDir), mode, days };
}

/**
 * Whether an event gets cards of its own at the build's clock: it has not
 * ended, and it starts before the end of the day `days` days from today in
 * the site's zone.
 */
export function hasOwnCard(
  site: Pick<SiteConfig, "now" | "timeZone">,
  days: number,
): (event: CalendarEvent) => boolean {
  const nowMs = site.now.toMillis();
  const end = site.now
    .setZone(site.timeZone)
    .startOf("day")
    .plus({ days: days + 1 })
    .toMillis();
  // Days beyond the calendar's reach (Luxon's invalid date): every event ahead.
  const until = Number.isFinite(end) ? end : Number.POSITIVE_INFINITY;
  return (event) => startMillis(event) < until && !endedBefore(event, nowMs);
}

/** The share cards of a build, for its report. */
export interface CardsSummary {
  /** Card files the site has. */
  readonly files: number;
  readonly drawn: number;
  /** What each event with cards of its own got: four cards, or the link preview card only. */
  readonly shapes: "all" | "og";
  readonly mode: Exclude<ShareCardsMode, "off">;
  /** SHARE_CARDS_DAYS */
  readonly days: number;
  /** Event pages with cards of their own: those of the events not ended that start within `days`. */
  readonly eventCards: number;
}

/** What a page's `og:image` says. */
export interface ShareCard {
  /** Absolute URL at SITE_URL. */
  readonly url: string;
  readonly width: number;
  readonly height: number;
  readonly alt: string;
  readonly type: "image/png";
}

interface EventCards {
  readonly og: ShareCard;
  /** Absolute URLs for the structured data: 16:9, 4:3 and 1:1 with SHARE_CARDS=all, else the og card. */
  readonly structuredData: readonly string[];
}

/**
 * The sizes an event's cards come in. Before the event count is known
 * (drawing early, during the fetch), `auto` asks for the link preview card
 * only; the three other shapes follow once the count says `all`.
 */
function eventSizes(shapes: ShareCardsMode): readonly CardSize[] {
  return shapes === "all" ? [OG_SIZE, ...STRUCTURED_DATA_SIZES] : [OG_SIZE];
}

export class ShareCards {
  readonly #site: SiteConfig;
  readonly #studio: CardStudio;
  readonly #shard: Shard;
  readonly #events = new Map<string, EventCards>();
  readonly #calendars = new Map<string, ShareCard>();
  readonly #categories = new Map<string, ShareCard>();
  readonly #siteCard: ShareCard;
  /** Every file to publish, once each, with its shard key (src/shards). */
  readonly #files = new Map<string, { readonly file: CardFile; readonly shardKey: ShardKey }>();
  /** Every card's key, whichever shard publishes it. */
  readonly #everyKey = new Set<string>();

  /** What each event with cards of its own gets: four cards (`all`) or the link preview card only (`og`). */
  readonly shapes: "all" | "og";
  readonly #mode: Exclude<ShareCardsMode, "off">;
  readonly #days: number;
  readonly #eventCards: number;

  constructor(
    data: SiteData,
    site: SiteConfig,
    setup: ShareCardsSetup,
    shard: Shard = WHOLE_BUILD,
  ) {
    this.#site = site;
    this.#shard = shard;
    this.#mode = setup.mode;
    this.#days = setup.days;
    const ownCard = hasOwnCard(site, setup.days);
    const withCards = new Set(
      data.views.eventPages.filter((page) => ownCard(page.event)).map((page) => page.event),
    );
    this.#eventCards = withCards.size;
    this.shapes = eventCardShapes(setup.mode, this.#eventCards);
    this.#studio = setup.studio;
    const writer = new CardWriter(cardSite(site), setup.dates.when);
    const colors = calendarColors(data.calendars);
    const allColors = data.calendars.map((calendar) => colors(calendar));
    const images = new Map(
      data.media.map((file): [string, CardImage] => [
        site.urls.absolute(file.path),
        { name: basename(file.path), cachePath: file.cachePath },
      ]),
    );

    for (const { calendar } of data.views.calendars) {
      const content = writer.calendar(calendar, colors(calendar));
      this.#calendars.set(calendar.id, this.#card(this.#one(content), content));
    }
    const sizes = eventSizes(this.shapes);
    for (const { event, calendar, isPast } of data.views.eventPages) {
      if (!withCards.has(event)) {
        // Its calendar's card; named in its structured data while Google may still show the event.
        const og = this.forCalendar(calendar.id);
        this.#events.set(eventKey(event), { og, structuredData: isPast ? [] : [og.url] });
        continue;
      }
      // Only an image the build copied into the site: a card never fetches one itself.
      const image = (event.image && images.get(event.image.url)) ?? null;
      const content = writer.event(event, calendar, colors(calendar), image);
      const [og, ...more] = this.#request(content, sizes, eventShardKey(event));
      const ogCard = this.#card(og as CardFile, content);
      this.#events.set(eventKey(event), {
        og: ogCard,
        structuredData: more.length > 0 ? more.map((file) => this.#url(file)) : [ogCard.url],
      });
    }
    for (const { category } of data.views.categories) {
      const content = writer.category(category, allColors);
      this.#categories.set(category.id, this.#card(this.#one(content), content));
    }
    const siteContent = writer.site(allColors);
    this.#siteCard = this.#card(this.#one(siteContent), siteContent);
  }

  /** An event page's card; null for an event without a page. */
  forEvent(event: Pick<CalendarEvent, "calendarId" | "id">): ShareCard | null {
    return this.#events.get(eventKey(event))?.og ?? null;
  }

  /** The images an event's structured data names (schema.org `image`), absolute URLs. */
  structuredDataImages(event: Pick<CalendarEvent, "calendarId" | "id">): readonly string[] {
    return this.#events.get(eventKey(event))?.structuredData ?? [];
  }

  /** A calendar's card (its lists and months); the site's for an unknown calendar. */
  forCalendar(calendarId: string): ShareCard {
    return this.#calendars.get(calendarId) ?? this.#siteCard;
  }

  forCategory(categoryId: string): ShareCard {
    return this.#categories.get(categoryId) ?? this.#siteCard;
  }

  /** The home page's, and every page's without one of its own. */
  forSite(): ShareCard {
    return this.#siteCard;
  }

  /**
   * The keys of every card of the site, this build's and, in a split build,
   * the other shards' (what the cache keeps: shards may share it).
   */
  keys(): ReadonlySet<string> {
    return this.#everyKey;
  }

  /** Resolves once every card is rendered (or kept from an earlier build). */
  settled(): Promise<void> {
    return this.#studio.settled(this.#files.keys());
  }

  /** What the build report says of the cards (src/publish/report.ts); `drawn`: by this build. */
  summary(drawn: number): CardsSummary {
    return {
      files: this.#files.size,
      drawn,
      shapes: this.shapes,
      mode: this.#mode,
      days: this.#days,
      eventCards: this.#eventCards,
    };
  }

  /** Files of cards in the structured data's shapes only: what SHARE_CARDS=og would not write. */
  structuredDataFiles(): number {
    return [...this.#files.values()].filter(({ file }) => file.size !== OG_SIZE).length;
  }

  /**
   * The cards as files of the site, copied from the cache (call after
   * `settled`). A card's key names its bytes (what it shows, its size and
   * the renderer: CardStore.keys), so it is the card's inputs: a card
   * published under the same key is kept without reading its file (100,000
   * files, 1.9 GB, at 100,000 events).
   */
  fileGroup(read: (path: string) => Uint8Array): FileGroup {
    return fileGroup<{ readonly file: CardFile; readonly shardKey: ShardKey }>({
      phase: "cards",
      name: "cards",
      items: [...this.#files.values()],
      path: ({ file }) => paths.card(file.name),
      render: ({ file }) => read(file.cachePath),
      inputs: ({ file }) => file.key,
      shardKey: ({ shardKey }) => shardKey,
    });
  }

  /** The cards' files; drawn and published only when this shard owns them. */
  #request(content: CardContent, sizes: readonly CardSize[], shardKey: ShardKey): CardFile[] {
    const owned = owns(this.#shard, shardKey);
    const files = owned ? this.#studio.request(content, sizes) : this.#studio.files(content, sizes);
    for (const file of files) this.#everyKey.add(file.key);
    if (!owned) return files;
    for (const file of files) this.#files.set(file.key, { file, shardKey });
    return files;
  }

  /** A site-wide card (a calendar's, a category's, the site's). */
  #one(content: CardContent): CardFile {
    return this.#request(content, [OG_SIZE], null)[0] as CardFile;
  }

  #url(file: CardFile): string {
    return this.#site.urls.absolute(paths.card(file.name));
  }

  #card(file: CardFile, content: CardContent): ShareCard {
    return {
      url: this.#url(file),
      width: file.size.width,
      height: file.size.height,
      alt: cardAltText(content),
      type: "image/png",
    };
  }
}

/**
 * Asks for event cards while the portal is still being read: the cards of an
 * event without an image need only its own fields, its calendar and the site,
 * so they can be drawn while the build waits on the portal, and the build's
 * own request for them later (ShareCards) finds them done. An event whose
 * card comes out differently in the end (an image, a change the published
 * state adds) is simply drawn again then; the early card stays in the cache
 * while builds ask for it (CardStudio.prune), so that the next build finds
 * it rather than drawing it again.
 */
export function earlyEventCards(
  site: SiteConfig,
  { studio, dates, mode, days }: ShareCardsSetup,
  shard: Shard = WHOLE_BUILD,
): (event: CalendarEvent, calendars: readonly Calendar[]) => void {
  const writer = new CardWriter(cardSite(site), dates.when);
  const sizes = eventSizes(mode);
  const ownCard = hasOwnCard(site, days);
  // The calendar list arrives once, before any event: looked up by id from then on.
  let known: {
    readonly calendars: readonly Calendar[];
    readonly byId: ReadonlyMap<string, Calendar>;
    readonly colors: (calendar: Calendar) => string;
  } | null = null;
  return (event, calendars) => {
    // Only an event with cards of its own (ShareCards); one with an image waits for it to be copied.
    if (event.image || !ownCard(event)) return;
    if (!owns(shard, eventShardKey(event))) return;
    if (known?.calendars !== calendars) {
      known = {
        calendars,
        byId: new Map(calendars.map((calendar) => [calendar.id, calendar])),
        colors: calendarColors(calendars),
      };
    }
    const calendar = known.byId.get(event.calendarId);
    if (calendar) {
      studio.request(writer.event(event, calendar, known.colors(calendar), null), sizes);
    }
  };
}

function cardSite(site: SiteConfig) {
  const address = new URL(site.url);
  return {
    lang: site.lang,
    title: site.title,
    description: site.description,
    address: `${address.host}${address.pathname.replace(/\/+$/, "")}`,
  };
}

/** Each calendar's colour as the site's stylesheet gives it (src/site/calendar-colors.ts). */
function calendarColors(calendars: readonly Calendar[]): (calendar: Calendar) => string {
  const byId = new Map(
    calendars.map((calendar, index) => [calendar.id, calendarColor(calendar, index)]),
  );
  return (calendar) => byId.get(calendar.id) ?? calendarColor(calendar, 0);
}

function eventKey(event: Pick<CalendarEvent, "calendarId" | "id">): string {
  return `${event.calendarId}\u0000${event.id}`;
}
