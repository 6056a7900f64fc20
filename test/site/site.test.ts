import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { HtmlValidate } from "html-validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeIdSegment, paths } from "../../src/model/url-scheme.ts";
import { createDemoDataset } from "../../src/portal/index.ts";
import type { DatasetEvent, PortalDataset } from "../../src/portal/types.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, DEMO_SITE_URL, removeBuild } from "../helpers/demo-build.ts";
import { demoEvents, eventUrl, isDigestFile } from "../helpers/demo-expectations.ts";
import { startingBetween, useDemoPartPortal } from "../helpers/demo-parts.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";

let dir: string;
let dataset: PortalDataset;
let visibleEvents: DatasetEvent[];

const read = (path: string) => readFileSync(join(dir, path), "utf8");
/** As Nunjucks escapes text: `&`, `<`, `>`, `"` and `'`. */
const escapeHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A file in an event's folder, relative to the site: its page unless named. */
const eventFile = (event: DatasetEvent, name = "index.html") =>
  `${paths.event(event.calendarId, event.id).slice(1)}${name}`;

function htmlFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html"))
    .map((file) => file.split(sep).join("/"));
}

/** The site's pages: its HTML files but the weekly digest's mails (test/digest checks them as mails). */
const pageFiles = (root: string): string[] => htmlFiles(root).filter((file) => !isDigestFile(file));

beforeAll(async () => {
  dir = (await builtDemoSite()).dir;
  dataset = createDemoDataset(NOW);
  visibleEvents = demoEvents();
});

describe("the demo site", () => {
  it("should write the public URL layout", () => {
    for (const path of [
      "index.html",
      "calendars/index.html",
      "categories/index.html",
      "404.html",
      "sitemap.xml",
      "robots.txt",
    ]) {
      expect(existsSync(join(dir, path)), path).toBe(true);
    }
    for (const calendar of new Set(visibleEvents.map((e) => e.calendarId))) {
      expect(existsSync(join(dir, "calendars", encodeIdSegment(calendar), "index.html"))).toBe(
        true,
      );
      expect(
        existsSync(join(dir, "calendars", encodeIdSegment(calendar), "past", "index.html")),
      ).toBe(true);
    }
  });

  it("should give every event of the portal its page with title, time and place", () => {
    expect(visibleEvents.length).toBeGreaterThan(100);
    for (const event of visibleEvents) {
      const path = eventFile(event);
      expect(existsSync(join(dir, path)), `${event.id}: ${path}`).toBe(true);
      const html = read(path);
      expect(html).toContain(`<h1 class="p-name" dir="auto">${escapeHtml(event.title)}</h1>`);
      expect(html).toMatch(
        new RegExp(
          `<time class="dt-start" datetime="${event.allDay ? event.start : event.start.slice(0, 16)}`,
        ),
      );
      if (event.location?.name) expect(html).toContain(escapeHtml(event.location.name));
    }
  });

  it("should not publish calendars of another organization", () => {
    const demoOrg = dataset.organizations[0]?.id ?? "";
    const foreign = dataset.calendars.filter((c) => !c.organizations.includes(demoOrg));
    expect(foreign.length).toBeGreaterThan(0);
    for (const calendar of foreign) {
      expect(existsSync(join(dir, "calendars", encodeIdSegment(calendar.id)))).toBe(false);
    }
  });

  it("should mark cancelled and postponed events on their pages and in lists", () => {
    const cancelled = visibleEvents.filter((e) => e.status === "cancelled");
    const postponed = visibleEvents.filter((e) => e.status === "postponed");
    expect(cancelled.length).toBeGreaterThan(0);
    expect(postponed.length).toBeGreaterThan(0);
    for (const event of [...cancelled, ...postponed]) {
      const html = read(eventFile(event));
      expect(html).toContain(`status-banner status-${event.status}`);
    }
    const lists = htmlFiles(join(dir, "calendars"))
      .filter((f) => !f.includes("/events/"))
      .map((f) => read(`calendars/${f}`));
    expect(lists.some((html) => html.includes("badge-cancelled"))).toBe(true);
  });

  it("should offer Add to calendar on every event page but those of cancelled events, and no such links in the widget", () => {
    const pageOf = (event: DatasetEvent) => read(eventFile(event));
    const icsLink = (event: DatasetEvent) => `href="/${eventFile(event, "event.ics")}"`;
    const cancelled = visibleEvents.filter((e) => e.status === "cancelled");
    const others = visibleEvents.filter((e) => e.status !== "cancelled");
    expect(cancelled.length).toBeGreaterThan(0);
    expect(others.some((e) => e.status === "postponed")).toBe(true);
    for (const event of others) {
      const html = pageOf(event);
      expect(html, event.id).toContain('<section class="add-to-calendar"');
      expect(html, event.id).toContain(icsLink(event));
      expect(html, event.id).toContain(
        "https://calendar.google.com/calendar/render?action=TEMPLATE",
      );
    }
    for (const event of cancelled) {
      const html = pageOf(event);
      expect(html, event.id).toContain("status-banner status-cancelled");
      expect(html, event.id).not.toContain("add-to-calendar");
      expect(html, event.id).not.toContain(">Add to calendar<");
      expect(html, event.id).not.toContain("event.ics");
      expect(html, event.id).not.toContain("calendar.google.com");
      expect(html, event.id).not.toContain("outlook.live.com");
      expect(html, event.id).not.toContain("outlook.office.com");
      // The file itself stays, for those who added the event before it was cancelled.
      const ics = eventFile(event, "event.ics");
      expect(read(ics), event.id).toContain("STATUS:CANCELLED");
    }
    // The widget marks cancelled events and, like the lists, links only to the event page.
    const calendar = cancelled[0]?.calendarId ?? "";
    const widget = read(join("embed", encodeIdSegment(calendar), "index.html"));
    expect(widget).toContain("ecp-badge--cancelled");
    expect(widget).not.toContain("event.ics");
    expect(widget).not.toContain("calendar.google.com");
  });

  it("should generate month pages only for months that have events", () => {
    for (const calendarDir of readdirSync(join(dir, "calendars"))) {
      const calendarPath = join(dir, "calendars", calendarDir);
      if (!statSync(calendarPath).isDirectory()) continue;
      const years = readdirSync(calendarPath).filter((name) => /^\d{4}$/.test(name));
      const months = years.flatMap((year) =>
        readdirSync(join(calendarPath, year)).map((m) => `${year}/${m}`),
      );
      const calendarEvents = visibleEvents.filter(
        (e) => encodeIdSegment(e.calendarId) === calendarDir,
      );
      const expected = new Set(calendarEvents.map((e) => e.start.slice(0, 7).replace("-", "/")));
      for (const month of expected) expect(months, `${calendarDir} ${month}`).toContain(month);
      for (const month of months) {
        expect(read(`calendars/${calendarDir}/${month}/index.html`)).toMatch(
          /href="\/calendars\/[^"]+\/events\//,
        );
      }
    }
  });

  it("should carry schema.org Event JSON-LD with the required properties on each event page", () => {
    const pages = htmlFiles(dir).filter(
      (f) => f.startsWith("calendars/") && f.includes("/events/"),
    );
    expect(pages.length).toBe(visibleEvents.length);
    for (const page of pages) {
      const match = read(page).match(/<script type="application\/ld\+json">(.*?)<\/script>/s);
      expect(match, page).not.toBeNull();
      const data = JSON.parse(match?.[1] ?? "{}");
      expect(data["@type"]).toBe("Event");
      expect(data.name).toBeTruthy();
      expect(data.url).toBe(`${DEMO_SITE_URL}/${page.replace(/index\.html$/, "")}`);
      expect(data.eventStatus).toMatch(
        /^https:\/\/schema\.org\/Event(Scheduled|Cancelled|Postponed)$/,
      );
      expect(data.eventAttendanceMode).toMatch(
        /^https:\/\/schema\.org\/(Offline|Online|Mixed)EventAttendanceMode$/,
      );
      expect(data.startDate).toMatch(
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z))?$/,
      );
      const event = visibleEvents.find((e) =>
        data.url.endsWith(`/events/${encodeIdSegment(e.id)}/`),
      );
      if (event?.location || event?.onlineUrl) expect(data.location, page).toBeTruthy();
    }
  });

  it("should offer every event as a card to embed: snippets on its page, oEmbed discovery in its head, the card and the answer", () => {
    for (const event of visibleEvents) {
      const html = read(eventFile(event));
      const card = `${DEMO_SITE_URL}${paths.embedEvent(event.calendarId, event.id)}`;
      const oembed = `${DEMO_SITE_URL}${paths.oembedEvent(event.calendarId, event.id)}`;
      expect(html, event.id).toContain('<h2 id="embed-event-heading">Embed this event</h2>');
      expect(html, event.id).toContain(
        `data-calendar=&quot;${encodeIdSegment(event.calendarId)}&quot; data-event=&quot;${encodeIdSegment(event.id)}&quot;`,
      );
      expect(html, event.id).toContain(`&lt;iframe src=&quot;${card}&quot;`);
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head, event.id).toContain(
        `<link rel="alternate" type="application/json+oembed" href="${oembed}" title="${escapeHtml(event.title)}">`,
      );
      const answer = JSON.parse(read(paths.oembedEvent(event.calendarId, event.id).slice(1)));
      expect(answer, event.id).toMatchObject({ type: "rich", version: "1.0", title: event.title });
      expect(Number.isInteger(answer.width) && Number.isInteger(answer.height), event.id).toBe(
        true,
      );
      expect(answer.html, event.id).toContain(`src="${card}"`);
      const cardHtml = read(`${paths.embedEvent(event.calendarId, event.id).slice(1)}index.html`);
      expect(cardHtml, event.id).toContain(
        `<span class="ecp-name" dir="auto">${escapeHtml(event.title)}</span>`,
      );
      // Add to calendar on the card exactly when the page offers it.
      expect(cardHtml.includes('class="ecp-button"'), event.id).toBe(event.status !== "cancelled");
    }
  });

  it("should carry Open Graph tags on event pages", () => {
    const event = visibleEvents.find((e) => e.image) as DatasetEvent;
    const html = read(eventFile(event));
    expect(html).toContain(`<meta property="og:title" content="${escapeHtml(event.title)}">`);
    // The event's share card (docs/share-cards.md); its own image stays in the structured data.
    expect(html).toMatch(
      /<meta property="og:image" content="https:\/\/events\.example\.org\/cards\/[0-9a-f]{32}\.png">/,
    );
    expect(html).toMatch(/"image":\["https:\/\/events\.example\.org\/media\/[0-9a-f]+\.\w+"/);
  });

  it("should produce valid HTML without inline scripts, styles or event handlers", async () => {
    const validator = new HtmlValidate({
      extends: ["html-validate:recommended"],
      rules: {
        // Long-standing false positives for our markup choices:
        "no-trailing-whitespace": "off",
        "long-title": "off",
      },
    });
    const failures: string[] = [];
    for (const file of pageFiles(dir)) {
      const html = read(file);
      const report = await validator.validateString(html, file);
      if (!report.valid) {
        for (const result of report.results) {
          for (const m of result.messages)
            failures.push(`${file}:${m.line}: ${m.ruleId} ${m.message}`);
        }
      }
      // Inside real tags only: escaped code samples may show such attributes as text.
      expect(html, file).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
      expect(html, file).not.toMatch(/<[a-z][^>]*\sstyle=/i);
      expect(
        html.replace(/<script type="application\/ld\+json">.*?<\/script>/gs, ""),
        file,
      ).not.toMatch(/<script(?![^>]*\ssrc=)/);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it("should have no broken internal links", () => {
    const broken = new Set<string>();
    for (const file of htmlFiles(dir)) {
      const html = read(file);
      for (const [, url] of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        if (!url) continue;
        const local = url.startsWith(DEMO_SITE_URL) ? url.slice(DEMO_SITE_URL.length) || "/" : url;
        if (!local.startsWith("/") || local.startsWith("//")) continue;
        const path = decodeURIComponent(local.split(/[?#]/)[0] ?? "");
        const target = path.endsWith("/") ? join(dir, path, "index.html") : join(dir, path);
        if (!existsSync(target)) broken.add(`${file} -> ${url}`);
      }
    }
    expect([...broken].slice(0, 20)).toEqual([]);
  });

  it("should list every page in the sitemap with lastmod from the portal", () => {
    const sitemap = read("sitemap.xml");
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const pages = pageFiles(dir)
      .filter((f) => f !== "404.html" && !f.startsWith("embed/"))
      .map((f) => `${DEMO_SITE_URL}/${f.replace(/index\.html$/, "")}`);
    expect(new Set(locs)).toEqual(new Set(pages));
    const event = visibleEvents[0] as DatasetEvent;
    const url = eventUrl(event);
    expect(sitemap).toContain(`<url><loc>${url}</loc><lastmod>${event.updatedAt}</lastmod></url>`);
    expect(read("robots.txt")).toContain(`Sitemap: ${DEMO_SITE_URL}/sitemap.xml`);
  });

  it("should copy event images into the site", () => {
    const media = readdirSync(join(dir, "media"));
    expect(media.length).toBeGreaterThan(0);
    for (const html of htmlFiles(dir).map(read)) {
      expect(html).not.toMatch(/127\.0\.0\.1|localhost/);
    }
    expect(relative(dir, join(dir, "media", media[0] ?? ""))).toMatch(/^media\/[0-9a-f]{32}\.\w+$/);
  });
});

describe("the demo site in Dutch", () => {
  let site: BuiltSite;
  // Every kind of page in Dutch: the demo's events of March and April have them all.
  const portal = useDemoPartPortal(startingBetween("2026-03-01", "2026-05-01"));

  // One Dutch build for every check of the Dutch site; about texts, not pictures: without share cards.
  beforeAll(async () => {
    site = await buildSite({
      ...portal(),
      SITE_LANG: "nl",
      SHARE_CARDS: "off",
      // A complete accessibility statement: its settings as the Dutch page shows them.
      ACCESSIBILITY_CONFORMANCE: "full",
      ACCESSIBILITY_STATEMENT_DATE: "2026-03-01",
      ACCESSIBILITY_CONTACT: "toegankelijkheid@example.org",
      ACCESSIBILITY_ENFORCEMENT_URL: "https://www.example.nl/ombudsman",
    });
    expect(site.status, site.log).toBe(0);
  });

  afterAll(() => {
    if (site) removeBuild(site);
  });

  it("should use Dutch interface texts and Dutch dates with SITE_LANG=nl", () => {
    const home = readFileSync(join(site.dir, "index.html"), "utf8");
    expect(home).toContain('<html lang="nl" dir="ltr">');
    expect(home).toContain("Komende evenementen");
    expect(home).toMatch(
      /(maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag) \d{1,2} (maart|april)/,
    );
    const month = readdirSync(join(site.dir, "calendars", "culture", "2026"))[0] ?? "";
    expect(
      readFileSync(join(site.dir, "calendars", "culture", "2026", month, "index.html"), "utf8"),
    ).toContain("Maandoverzicht");
    // Places and series in Dutch: the navigation, a series' rule, an event's other dates.
    expect(home).toContain('<li><a href="/places/">Locaties</a></li>');
    const series = join(site.dir, "calendars", "community", "series");
    const repair = readdirSync(series).find((name) => name.startsWith("repair-cafe-")) ?? "";
    expect(readFileSync(join(series, repair, "index.html"), "utf8")).toContain(
      '<p class="lede series-rule">Elke zaterdag om 10:00</p>',
    );
  });

  it("should fill the accessibility statement in from its settings, in Dutch, with no warning", () => {
    const page = readFileSync(join(site.dir, "accessibility", "index.html"), "utf8");
    expect(page).toContain("<h1>Toegankelijkheidsverklaring</h1>");
    expect(page).toContain("Deze website voldoet volledig aan EN 301 549");
    // Full conformance lists no non-accessible content.
    expect(page).not.toContain("Niet-toegankelijke inhoud");
    expect(page).toContain("Deze verklaring is opgesteld op zondag 1 maart 2026.");
    expect(page).toContain(
      '<a href="mailto:toegankelijkheid@example.org">toegankelijkheid@example.org</a>',
    );
    expect(page).toContain(
      '<a href="https://www.example.nl/ombudsman">https://www.example.nl/ombudsman</a>',
    );
    expect(site.log).not.toContain("accessibility statement");
  });

  it("should name the when pages and the days in Dutch", () => {
    const html = readFileSync(join(site.dir, `${paths.when("today").slice(1)}index.html`), "utf8");
    expect(html).toMatch(
      /<span data-when-in="0">Vandaag,\s*<time datetime="2026-03-20">vrijdag 20 maart 2026<\/time>/,
    );
    expect(html).toContain(">Dit weekend</a>");
    expect(html).toContain(">Volgende week</a>");
    const home = readFileSync(join(site.dir, "index.html"), "utf8");
    expect(home).toContain('aria-label="Wat is er te doen"');
  });
});
