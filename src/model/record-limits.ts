/**
 * The most of each thing one record may publish (docs/configuration.md,
 * "Limits per record", has the table and the reasons). Every page, feed,
 * calendar and JSON file that shows an event copies its texts, and an event
 * is in a feed and a calendar of its own per category (and per calendar and
 * category): without limits one record grows the site with the square of
 * what it sends. The limits sit well above what event platforms allow
 * their editors, so real data passes untouched, and far below what an
 * abusive or broken record sends. Past a limit the record stays and the
 * excess goes, with a warning naming the record.
 *
 * Lengths are characters (Unicode code points: src/model/cut-text.ts); text
 * is cut at a word and marked with "…", a URL is left out whole (a cut one
 * leads elsewhere).
 */
export const RECORD_LIMITS = {
  /** Facebook allows 64, Eventbrite 75, Meetup 80, Mobilizon 200. Calendar names too. */
  title: 300,
  /** A teaser (Eventbrite's summary allows 140). */
  summary: 1_000,
  /**
   * Sanitized HTML, markup included. Google Calendar keeps about 8,192
   * characters of a description, Exchange about 32 KB of a whole event.
   */
  description: 30_000,
  /**
   * What is sanitized at all: a description is first cut to this many
   * characters of the portal's HTML, so that a megabyte of it costs no
   * second of the build. Rich-text markup rarely takes more than a few
   * times the text it wraps.
   */
  descriptionSource: 300_000,
  /** A calendar's description: plain text, shown on its page and in its feeds. */
  calendarDescription: 2_000,
  /** A place's name, an organizer's and a performer's. */
  name: 300,
  /** Each part of an address (street, locality, region, postal code, country). */
  addressPart: 200,
  /** An address given as one line. */
  addressLine: 500,
  /** An image's text alternative (WCAG asks for a short one). */
  imageAlt: 1_000,
  /** Mobilizon's tags have 40 characters at most, its category 100. */
  categoryName: 100,
  /**
   * Categories per event: Mobilizon allows an event 10 tags, Meetup a group
   * 15 topics, Eventbrite an event a category, a subcategory, a format and
   * some tags. Each adds
   * a category page and feeds to the site, and the event to their feeds.
   */
  categories: 30,
  /** Performers per event (schema.org performer): a festival day's lineup. */
  performers: 50,
  /**
   * Access features per event (src/model/access-features.ts): the vocabulary
   * has nine, and a venue's page of access information rarely lists more
   * than a dozen things.
   */
  accessFeatures: 20,
  /** One access feature in the portal's own words: a line, not a page. */
  accessText: 200,
  /**
   * Any URL (online, registration, organizer, performer, image, a link in
   * a description): Mobilizon's limit for an online address; sitemaps.org
   * takes URLs under 2,048 characters, and many browsers and services
   * fail on longer ones.
   */
  url: 2_000,
  /** An e-mail address (RFC 5321 section 4.5.3.1.3: a path has 256 octets, the brackets included). */
  email: 254,
} as const;
