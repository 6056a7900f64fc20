import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headersFor } from "../../src/hosts/headers.ts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { siteHeaderRules } from "../../src/hosts/site-rules.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { answerOembed } from "../../src/oembed/endpoint.ts";
import { answersInFolder } from "../../src/oembed/serve-folder.ts";
import { type DatasetEvent, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { useBrowser } from "../helpers/browser.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, runScript } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { listFilesSync } from "../helpers/files.ts";
import { type HtmlElement, htmlElements } from "../helpers/html-elements.ts";
import { icalJsCalendar } from "../helpers/ics-readers.ts";
import { parseFeeds, parseSitemaps } from "../helpers/python-readers.ts";
import { hasChromium, hasPythonModule } from "../helpers/system-packages.ts";

/*
 * One site in three languages (SITE_LANGUAGES=en,fr,ar, docs/translating.md):
 * part of the demo, a few of its events translated into French by the
 * portal (served as `title_fr` and `description_fr`, read through the field
 * map), built once without share cards (they are not what is checked here)
 * and read back as visitors, crawlers, feed readers and calendar apps read it.
 */

const hasFeedparser = hasPythonModule("feedparser");
const hasXml = hasPythonModule("xml.etree.ElementTree");
const LANGUAGES = ["en", "fr", "ar"] as const;
const FOLDERS: Readonly<Record<(typeof LANGUAGES)[number], string>> = {
  en: "",
  fr: "fr/",
  ar: "ar/",
};

/** The French a few events get from the portal, the script in it for the sanitizer to drop. */
const french = (event: DatasetEvent) => ({
  title: `En français : ${event.title}`,
  description: '<p>Description en français.</p><script>alert("fr")</script>',
});

/** Every third event of the part, which has them in every calendar. */
const translatedIn = (events: readonly DatasetEvent[]) =>
  new Set(events.filter((_, index) => index % 3 === 0).map((event) => event.id));

let work: string;
let portal: RunningPortal;
let server: PreviewServer;
let site: BuiltSite;
let origin: string;
let translated: DatasetEvent[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "ecp-languages-"));
  const part = demoPart(startingBetween("2026-03-01", "2026-05-01"));
  const chosen = translatedIn(part.events);
  const events = part.events.map((event) =>
    chosen.has(event.id) ? { ...event, translations: { fr: french(event) } } : event,
  );
  translated = events.filter((event) => event.translations);
  portal = await startPortal({
    host: "127.0.0.1",
    port: 0,
    now: NOW,
    dataset: { ...part, events },
  });
  server = await startPreviewServer({
    // The rules a host of this build sends: each language's folder has the root's.
    headers: (sitePath, at) =>
      headersFor(
        sitePath,
        siteHeaderRules(
          { url: origin, map: null, languages: LANGUAGES.map((l) => ({ folder: FOLDERS[l] })) },
          [at],
        ),
      ),
  });
  origin = server.origin;
  site = await buildSite(
    {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_FIELD_MAP: JSON.stringify({
        event: { "title.fr": "title_fr", "description.fr": "description_fr" },
      }),
      SITE_URL: origin,
      SITE_LANGUAGES: "en,fr,ar",
      EVENT_API_CACHE_DIR: join(work, "cache"),
      // Drawing share cards is not what this file checks (test/README.md).
      SHARE_CARDS: "off",
    },
    join(work, "_site"),
  );
  expect(site.status, site.log).toBe(0);
  server.setRoot(site.dir);
});

afterAll(async () => {
  await server?.close();
  await portal?.close();
  rmSync(work, { recursive: true, force: true });
});

const read = (file: string) => readFileSync(join(site.dir, file), "utf8");
const elements = (file: string) => htmlElements(read(file));
const named = (found: readonly HtmlElement[], tag: string, attribute?: string) =>
  found.filter((e) => e.tagName === tag && (!attribute || e.attributes.has(attribute)));
const eventPage = (event: DatasetEvent) =>
  `${paths.event(event.calendarId, event.id).slice(1)}index.html`;

/** The site's own pages (Eleventy's and the streamed ones), by language folder; not the widget's. */
function pagesIn(folder: string): string[] {
  return listFilesSync(join(site.dir, folder)).filter(
    (file) =>
      /(^|\/)index\.html$|^404\.html$/.test(file) &&
      !/^(fr|ar)\//.test(file) &&
      !/^embed\/.+/.test(file) &&
      !file.startsWith("digest/") &&
      !file.includes("/digest/"),
  );
}

/** A page's address by its file ("calendars/x/index.html" -> "/calendars/x/"). */
const pathOf = (file: string) => `/${file.replace(/index\.html$/, "")}`;

describe("a site in several languages", () => {
  it("should publish the first language at the root and each other in its folder, in its language", () => {
    const html = (file: string) => named(elements(file), "html")[0]?.attributes;
    expect(html("index.html")?.get("lang")).toBe("en");
    expect(html("index.html")?.get("dir")).toBe("ltr");
    expect(html("fr/index.html")?.get("lang")).toBe("fr");
    expect(html("ar/index.html")?.get("lang")).toBe("ar");
    expect(html("ar/index.html")?.get("dir")).toBe("rtl");
    // Each a whole site: the same pages, 404 and embed guide included.
    const root = pagesIn("");
    expect(root.length).toBeGreaterThan(100);
    expect(pagesIn("fr")).toEqual(root);
    expect(pagesIn("ar")).toEqual(root);
    for (const file of ["embed/index.html", "embed.js", "search/index.html", "404.html"]) {
      for (const folder of Object.values(FOLDERS))
        expect(existsSync(join(site.dir, folder, file))).toBe(true);
    }
    // Its own search index, in its language (Pagefind's stemming).
    for (const lang of LANGUAGES) {
      const entry = JSON.parse(read(`${FOLDERS[lang]}pagefind/pagefind-entry.json`));
      expect(Object.keys(entry.languages)).toEqual([lang]);
    }
  });

  it("should link every page to each of its translations and the root's as x-default, all existing files", () => {
    let checked = 0;
    for (const lang of LANGUAGES) {
      for (const file of pagesIn(FOLDERS[lang])) {
        const path = pathOf(file);
        const links = named(elements(`${FOLDERS[lang]}${file}`), "link", "hreflang");
        const alternates: Record<string, string> = Object.fromEntries(
          links.map((link) => [link.attributes.get("hreflang"), link.attributes.get("href") ?? ""]),
        );
        // The same set from every language's copy of the page: reciprocal.
        expect(alternates, `${lang} ${path}`).toEqual({
          en: `${origin}${path}`,
          fr: `${origin}/fr${path}`,
          ar: `${origin}/ar${path}`,
          "x-default": `${origin}${path}`,
        });
        for (const href of Object.values(alternates)) {
          const local = new URL(href).pathname.slice(1);
          expect(
            existsSync(join(site.dir, local.endsWith(".html") ? local : `${local}index.html`)),
            href,
          ).toBe(true);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("should offer the same page in each language from the header, each named in itself", () => {
    const event = translated[0] as DatasetEvent;
    for (const lang of LANGUAGES) {
      const found = elements(`${FOLDERS[lang]}${eventPage(event)}`);
      const nav = found.findIndex(
        (e) => e.tagName === "nav" && e.attributes.get("class") === "language-switcher",
      );
      expect(nav, lang).toBeGreaterThan(0);
      const links = named(found.slice(nav), "a").slice(0, LANGUAGES.length);
      expect(links.map((a) => a.text)).toEqual(["English", "Français", "العربية"]);
      expect(links.map((a) => a.attributes.get("lang"))).toEqual([...LANGUAGES]);
      expect(links.map((a) => a.attributes.get("hreflang"))).toEqual([...LANGUAGES]);
      expect(links.map((a) => a.attributes.get("href"))).toEqual(
        LANGUAGES.map(
          (other) => `/${FOLDERS[other]}${eventPage(event).replace(/index\.html$/, "")}`,
        ),
      );
      expect(links.map((a) => a.attributes.get("aria-current") ?? null)).toEqual(
        LANGUAGES.map((other) => (other === lang ? "true" : null)),
      );
    }
  });

  it("should show a translated title in its language's pages and the portal's own, marked, in the others", () => {
    const event = translated[0] as DatasetEvent;
    const title = (lang: string) =>
      named(elements(`${FOLDERS[lang as "en"]}${eventPage(event)}`), "h1")[0];
    expect(title("fr")?.text).toBe(`En français : ${event.title}`);
    expect(title("fr")?.attributes.has("lang")).toBe(false);
    expect(title("ar")?.text).toBe(event.title);
    expect(title("ar")?.attributes.get("lang")).toBe("en");
    expect(title("ar")?.attributes.get("dir")).toBe("auto");
    expect(title("en")?.attributes.has("lang")).toBe(false);
    // Read, bounded and sanitized as the portal's own description is.
    const description = read(`fr/${eventPage(event)}`);
    expect(description).toContain("Description en français.");
    expect(description).not.toContain('alert("fr")');
    // An event without a translation keeps the portal's title, marked, in French too.
    const other = portalEventNotIn(translated);
    const untranslated = named(elements(`fr/${eventPage(other)}`), "h1")[0];
    expect(untranslated?.text).toBe(other.title);
    expect(untranslated?.attributes.get("lang")).toBe("en");
    // The public JSON says which texts are the file's language's.
    const json = JSON.parse(read(`fr/api/calendars/${event.calendarId}/events.json`));
    expect(json).toMatchObject({ language: "fr", contentLanguage: "en" });
    const published = json.events.find((e: { id: string }) => e.id === event.id);
    expect(published).toMatchObject({
      title: `En français : ${event.title}`,
      translated: ["title"],
    });
  });

  it.skipIf(!hasFeedparser)(
    "should write each language's feeds in its language, with its translations",
    () => {
      const files = LANGUAGES.flatMap((lang) =>
        ["feed.xml", "atom.xml"].map((name) => join(site.dir, `${FOLDERS[lang]}${name}`)),
      );
      const feeds = parseFeeds(files);
      expect(feeds.map((feed) => feed.bozo)).toEqual(files.map(() => false));
      expect(feeds.map((feed) => feed.feed.language?.toLowerCase())).toEqual([
        "en",
        "en",
        "fr",
        "fr",
        "ar",
        "ar",
      ]);
      // Items are titled "<date> · <title>" (docs/feeds.md).
      const titles = (lang: string) =>
        feeds
          .find((feed) => feed.path.endsWith(`/_site/${FOLDERS[lang as "en"]}feed.xml`))
          ?.entries.map((entry) => entry.title.split(" · ").slice(1).join(" · ")) ?? [];
      const event = translated.find((e) => titles("fr").includes(`En français : ${e.title}`));
      expect(event).toBeDefined();
      expect(titles("ar")).toContain(event?.title);
      expect(titles("en")).toContain(event?.title);
      expect(JSON.parse(read("fr/feed.json")).language).toBe("fr");
    },
  );

  it("should name each language's calendar files in its language", () => {
    const names = LANGUAGES.map((lang) =>
      icalJsCalendar(read(`${FOLDERS[lang]}calendar.ics`)).getFirstPropertyValue("x-wr-calname"),
    );
    expect(names).toEqual(
      LANGUAGES.map(
        (lang) =>
          named(elements(`${FOLDERS[lang]}index.html`), "a").find(
            (a) => a.attributes.get("class") === "site-title",
          )?.text,
      ),
    );
    expect(new Set(names).size).toBe(LANGUAGES.length);
  });

  it.skipIf(!hasXml)(
    "should list every language's pages in the one sitemap, with their alternates",
    () => {
      const [sitemap] = Object.values(parseSitemaps([join(site.dir, "sitemap.xml")]));
      const locs = sitemap?.items.map((item) => item.loc) ?? [];
      for (const lang of LANGUAGES) {
        expect(locs).toContain(`${origin}/${FOLDERS[lang]}calendars/`);
      }
      const page = sitemap?.items.find((item) => item.loc === `${origin}/fr/calendars/`);
      expect(page?.alternates).toEqual([
        { rel: "alternate", hreflang: "en", href: `${origin}/calendars/` },
        { rel: "alternate", hreflang: "fr", href: `${origin}/fr/calendars/` },
        { rel: "alternate", hreflang: "ar", href: `${origin}/ar/calendars/` },
        { rel: "alternate", hreflang: "x-default", href: `${origin}/calendars/` },
      ]);
      expect(existsSync(join(site.dir, "fr/sitemap.xml"))).toBe(false);
      const robots = read("robots.txt");
      expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`);
      expect(robots).toContain("Disallow: /fr/embed/");
      expect(existsSync(join(site.dir, "fr/robots.txt"))).toBe(false);
    },
  );

  it("should keep what the site has once at its root: images, build state, manifest, host files", () => {
    const media = listFilesSync(join(site.dir, "media"));
    expect(media.length).toBeGreaterThan(0);
    for (const folder of ["fr", "ar"]) {
      for (const once of [
        "media",
        "api/build-state.json",
        "api/manifest.json",
        "_headers",
        "_redirects",
      ]) {
        expect(existsSync(join(site.dir, folder, once)), `${folder}/${once}`).toBe(false);
      }
    }
    // The languages' pages show the root's copies.
    const images = LANGUAGES.flatMap((lang) =>
      pagesIn(FOLDERS[lang]).flatMap((file) =>
        named(elements(`${FOLDERS[lang]}${file}`), "img")
          .map((img) => img.attributes.get("src") ?? "")
          .filter((src) => src.includes("/media/")),
      ),
    );
    expect(images.some((src) => src.startsWith("/media/"))).toBe(true);
    for (const src of images) expect(existsSync(join(site.dir, src)), src).toBe(true);
    expect(existsSync(join(site.dir, "api/build-state.json"))).toBe(true);
    const manifest = JSON.parse(read("api/manifest.json"));
    expect(manifest.languages).toEqual([
      { lang: "en", url: origin },
      { lang: "fr", url: `${origin}/fr` },
      { lang: "ar", url: `${origin}/ar` },
    ]);
    expect(read("_redirects")).toContain("/fr/*  /fr/404.html  404");
    expect(read("_headers")).toContain("/fr/calendars/*");
  });

  it("should serve each language's pages with the root's policy, and its widget to any frame", async () => {
    const calendar = (translated[0] as DatasetEvent).calendarId;
    for (const lang of LANGUAGES) {
      const page = await fetch(`${origin}/${FOLDERS[lang]}calendars/${calendar}/`);
      expect(page.headers.get("x-frame-options"), lang).toBe("DENY");
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const widget = await fetch(`${origin}/${FOLDERS[lang]}embed/${calendar}/`);
      expect(widget.headers.get("x-frame-options")).toBeNull();
      expect(widget.headers.get("content-security-policy")).toContain("frame-ancestors *");
    }
  });

  it("should answer oEmbed for a language's page from that language's answer", async () => {
    const calendar = (translated[0] as DatasetEvent).calendarId;
    const answer = async (folder: string) => {
      const url = `${origin}/${folder}calendars/${calendar}/`;
      const reply = await answerOembed(
        "GET",
        `${origin}/oembed?url=${encodeURIComponent(url)}`,
        answersInFolder(site.dir),
      );
      expect(reply.status, url).toBe(200);
      return JSON.parse(reply.body) as { title: string; provider_url: string; html: string };
    };
    const english = await answer("");
    const inFrench = await answer("fr/");
    expect(inFrench.provider_url).toBe(`${origin}/fr/`);
    expect(inFrench.html).toContain(`${origin}/fr/embed/${calendar}/`);
    expect(inFrench.title).not.toBe(english.title);
    expect(read(`fr/oembed/${calendar}.json`)).toBe(`${JSON.stringify(inFrench, null, 2)}\n`);
  });

  it("should refuse SITE_LANG other than SITE_LANGUAGES' first, and an unsupported language, in one line", async () => {
    const refused = async (env: Record<string, string>) => {
      const run = await runScript("src/cli/build.ts", ["--output", join(work, "refused")], {
        EVENT_API_URL: portal.url,
        EVENT_API_TOKEN: portal.token,
        ...env,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      return run.stderr;
    };
    expect(await refused({ SITE_LANG: "de", SITE_LANGUAGES: "en,fr" })).toMatch(
      /^error: SITE_LANG \(de\) and SITE_LANGUAGES \(en,fr\) disagree/,
    );
    expect(await refused({ SITE_LANGUAGES: "en,sv" })).toMatch(
      /^error: SITE_LANGUAGES: "sv" is not supported/,
    );
    expect(existsSync(join(work, "refused"))).toBe(false);
  });

  describe.skipIf(!hasChromium())("in a browser", () => {
    const browser = useBrowser();

    it("should keep the visitor on the same page when they choose another language", async () => {
      const calendar = (translated[0] as DatasetEvent).calendarId;
      const { page, problems } = await browser.open(`${origin}/fr/calendars/${calendar}/`);
      await page
        .getByRole("navigation", { name: "Langues" })
        .getByRole("link", { name: "العربية" })
        .click();
      await page.waitForURL(`${origin}/ar/calendars/${calendar}/`);
      expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
      const current = page
        .getByRole("navigation", { name: "اللغات" })
        .locator('[aria-current="true"]');
      expect(await current.getAttribute("lang")).toBe("ar");
      expect(problems).toEqual([]);
    });

    it("should show the widget of the language its lang option names, and the root's for an unbuilt one", async () => {
      const calendar = (translated[0] as DatasetEvent).calendarId;
      const { page } = await browser.open(`${origin}/embed/${calendar}/?lang=fr&count=3`);
      await page.waitForURL(`${origin}/fr/embed/${calendar}/?lang=fr&count=3`);
      expect(await page.locator("html").getAttribute("lang")).toMatch(/^fr/);
      const unbuilt = await browser.open(`${origin}/fr/embed/${calendar}/?lang=nl`);
      await unbuilt.page.waitForURL(`${origin}/embed/${calendar}/?lang=nl`);
      expect(await unbuilt.page.locator("html").getAttribute("lang")).toMatch(/^en/);
    });
  });
});

/** An event of the part the portal did not translate, with a page. */
function portalEventNotIn(events: readonly DatasetEvent[]): DatasetEvent {
  const ids = new Set(events.map((event) => event.id));
  const part = demoPart(startingBetween("2026-03-01", "2026-05-01"));
  const found = part.events.find(
    (event) => !ids.has(event.id) && existsSync(join(site.dir, eventPage(event))),
  );
  if (!found) throw new Error("the part has an event without a translation");
  return found;
}
