import { decodeHTML } from "entities";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMessage } from "../../src/i18n/messages.ts";
import {
  accented,
  PSEUDO_END,
  PSEUDO_START,
  pseudoLocalize,
} from "../../src/i18n/pseudo-locale.ts";
import { createDemoDataset } from "../../src/portal/index.ts";
import { useBrowser } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { listFiles, readSiteFile } from "../helpers/files.ts";
import { fragmentTexts, type PageText, pageTexts } from "../helpers/page-texts.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/**
 * The pseudo-locale (SITE_LANG=en-XA, docs/translating.md) finds text that
 * does not come from the messages: built with it, every text the site writes
 * itself is accented. What is left unaccented must be the portal's (the demo
 * dataset's texts are known), Intl's dates and times (English underneath),
 * or names of formats and code.
 */

const dataset = createDemoDataset(NOW);

/** Every string of the demo dataset, and each text node of its HTML descriptions, trimmed. */
function datasetTexts(): Set<string> {
  const texts = new Set<string>();
  const add = (text: string) => {
    for (const variant of [text, decodeHTML(text)]) {
      if (variant.trim()) texts.add(variant.trim());
    }
  };
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      add(value);
      if (value.includes("<")) for (const text of fragmentTexts(value)) add(decodeHTML(text));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(dataset);
  return texts;
}

/** The words Intl writes in English dates, times and zone names (en-XA formats as English). */
function intlWords(): Set<string> {
  const words = new Set(["AM", "PM", "at", "GMT", "UTC", "Time", "Standard", "Summer"]);
  const add = (text: string) => {
    for (const word of text.match(/\p{L}+/gu) ?? []) words.add(word);
  };
  for (const width of ["long", "short"] as const) {
    for (let day = 1; day <= 7; day++) {
      add(new Intl.DateTimeFormat("en", { weekday: width }).format(Date.UTC(2024, 0, day)));
    }
    for (let month = 0; month < 12; month++) {
      add(new Intl.DateTimeFormat("en", { month: width }).format(Date.UTC(2024, month, 15)));
    }
  }
  const zones = new Set(dataset.events.map((event) => event.timeZone));
  for (const zone of zones) {
    add(zone.replace(/_/g, " "));
    for (const timeZoneName of ["long", "short", "longGeneric", "shortGeneric"] as const) {
      for (const month of [0, 6]) {
        add(
          new Intl.DateTimeFormat("en", { timeZone: zone, timeZoneName }).format(
            Date.UTC(2026, month, 1),
          ),
        );
      }
    }
  }
  return words;
}

/** Names of formats and files, which every language writes as they are. */
const CODE_WORDS = new Set(["RSS", "Atom", "JSON", "Feed", "iCalendar", "oEmbed", "webcal", "ics"]);

/** The padding words that lengthen pseudo-localized messages. */
const PADDING_WORDS = new Set("one two three four five six seven eight nine ten".split(" "));

const ACCENTS = new Set([...accented("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")]);

const SEPARATORS = /\s*(?:[·,;:()|–—…[\]"“”«»]|\s-\s|\s\/\s)\s*/;

describe("pseudo-locale", () => {
  it("should accent letters and leave everything else as it is", () => {
    expect(accented("Skip to content, 2 times!")).toBe("Šķîþ ţö çöñţéñţ, 2 ţîɱéš!");
  });

  it("should keep a message's arguments and plural forms, with markers at both ends", () => {
    const [first, ...rest] = pseudoLocalize(
      parseMessage("Back to {name}: {count, plural, one {# event} other {# events}}"),
    );
    expect(first).toEqual({ type: 0, value: PSEUDO_START });
    expect(JSON.stringify(rest)).toContain('"value":"name"');
    expect(JSON.stringify(rest)).toContain("éṽéñţš");
    expect(JSON.stringify(rest.at(-1))).toContain(PSEUDO_END);
  });

  describe("a demo build in the pseudo-locale", () => {
    let site: BuiltSite;
    let pages: { file: string; texts: PageText[]; html: string }[] = [];
    /** The build served as the CDN serves it, for the browser's checks. */
    let server: RunningServer | undefined;

    beforeAll(async () => {
      site = await buildSite({ SITE_LANG: "en-XA", SHARE_CARDS: "off" });
      if (site.status !== 0) throw new Error(`The pseudo-locale build failed:\n${site.log}`);
      const files = (await listFiles(site.dir)).filter((file) => file.endsWith(".html"));
      pages = files.map((file) => {
        const html = readSiteFile(site.dir, file);
        return { file, html, texts: pageTexts(html) };
      });
      server = await startStaticServer();
      server.setRoot(site.dir);
    }, 240_000);

    afterAll(async () => {
      await server?.close();
      if (site) removeBuild(site);
    });

    it("should build the pages, the widget and its guide, all with the pseudo-locale's tag", () => {
      const files = pages.map((page) => page.file);
      for (const file of ["index.html", "404.html", "search/index.html", "embed/index.html"]) {
        expect(files).toContain(file);
      }
      expect(files.some((file) => /^embed\/[^/]+\/index\.html$/.test(file))).toBe(true);
      expect(pages.length).toBeGreaterThan(300);
      for (const page of pages) expect(page.html, page.file).toMatch(/<html lang="en-XA"/);
    });

    it("should leave no text of the site's own that is not pseudo-localized", () => {
      const known = datasetTexts();
      const intl = intlWords();
      expect([...known].some((text) => /[[\]]/.test(text))).toBe(false);
      // The portal's texts by the words they hold, to find those a page text contains.
      const byWord = new Map<string, string[]>();
      for (const text of known) {
        for (const word of new Set(text.match(/\p{L}+/gu) ?? [])) {
          byWord.set(word, [...(byWord.get(word) ?? []), text]);
        }
      }
      const leftOver = new Set<string>();
      for (const page of pages) {
        for (const { where, text } of page.texts) {
          let rest = text
            .replace(/\b(?:https?|webcal):\/\/\S+/g, " ")
            .replace(/\S+@\S+\.\w+/g, " ")
            .replace(/\S+\.(?:json|ics|xml|js)\b/g, " ");
          // The portal's texts it holds, longest first, are taken out whole.
          const candidates = new Set(
            (rest.match(/\p{L}+/gu) ?? []).flatMap((word) => byWord.get(word) ?? []),
          );
          for (const portal of [...candidates].sort((a, b) => b.length - a.length)) {
            rest = rest.split(portal).join(" · ");
          }
          for (const segment of rest.split(SEPARATORS)) {
            const words = segment.match(/\p{L}+/gu) ?? [];
            if ([...segment].some((char) => ACCENTS.has(char))) continue;
            const readable = words.every(
              (word) => intl.has(word) || CODE_WORDS.has(word) || PADDING_WORDS.has(word),
            );
            if (!readable) leftOver.add(`${page.file} ${where}: ${JSON.stringify(segment)}`);
          }
        }
      }
      expect([...leftOver].slice(0, 40)).toEqual([]);
    });

    describe.skipIf(!hasChromium())("on a 320 px wide screen", () => {
      const chromium = useBrowser();

      /** One page of each kind: longer words must wrap, never push the page sideways. */
      function onePageOfEachKind(): string[] {
        const files = pages.map((page) => page.file);
        const first = (pattern: RegExp) => files.find((file) => pattern.test(file)) ?? "";
        return [
          "index.html",
          "calendars/index.html",
          first(/^calendars\/[^/]+\/index\.html$/),
          first(/^calendars\/[^/]+\/\d{4}\/\d{2}\/index\.html$/),
          first(/^calendars\/[^/]+\/events\/[^/]+\/index\.html$/),
          first(/^places\/[^/]+\/index\.html$/),
          first(/^series\/[^/]+\/index\.html$/),
          "search/index.html",
          "subscribe/index.html",
          // Not the embed guide (embed/): its options table and code lines are wider
          // than 320 px in English too, a reference for site builders at a desk.
          "404.html",
        ].map((file) => `/${file.replace(/index\.html$/, "")}`);
      }

      it("should fit its pages without horizontal scrolling", async () => {
        const wide: string[] = [];
        for (const path of onePageOfEachKind()) {
          const { page, context } = await chromium.open(`${server?.origin}${path}`, {
            viewport: { width: 320, height: 640 },
          });
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          if (overflow > 0) wide.push(`${path}: ${overflow} px too wide`);
          await context.close();
        }
        expect(wide).toEqual([]);
      });
    });

    it("should close every pseudo-localized message it opens (no text cut short)", () => {
      const unbalanced: string[] = [];
      for (const page of pages) {
        let opened = 0;
        for (const { where, text } of page.texts) {
          const starts = text.split(PSEUDO_START).length - 1;
          const ends = text.split(PSEUDO_END).length - 1;
          // An attribute is one text: each message it holds is whole in it.
          if (where.includes("@") && starts !== ends)
            unbalanced.push(`${page.file} ${where}: ${text}`);
          opened += starts - ends;
        }
        if (opened !== 0) unbalanced.push(`${page.file}: ${opened} markers left open`);
      }
      expect(unbalanced.slice(0, 20)).toEqual([]);
    });
  });
});
