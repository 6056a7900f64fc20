import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../src/model/url-scheme.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import type { PortalDataset } from "../../src/portal/types.ts";
import {
  createHostileDataset,
  DROPPED_MARKERS,
  HOSTILE_DESCRIPTION,
  HOSTILE_TITLES,
} from "../fixtures/hostile-dataset.ts";
import { buildSite, type CommandRun, DEMO_SITE_URL } from "../helpers/demo-build.ts";

/** Every file below `dir`, as paths relative to it with "/" separators; fails on symlinks. */
function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => {
      const stat = lstatSync(join(dir, name));
      if (stat.isSymbolicLink()) throw new Error(`symlink in the output: ${name}`);
      return stat.isFile();
    })
    .map((name) => name.split(sep).join("/"))
    .sort();
}

/** Character references as an HTML parser decodes them in text and attribute values. */
function decodeHtml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);?/gi, (whole, code: string) => {
    if (code[0] === "#") {
      const hex = code[1] === "x" || code[1] === "X";
      return String.fromCodePoint(Number.parseInt(code.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    const named: Record<string, string> = {
      amp: "&",
      lt: "<",
      gt: ">",
      quot: '"',
      apos: "'",
      nbsp: "\u00a0",
    };
    return named[code.toLowerCase()] ?? whole;
  });
}

interface Tag {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
}

/**
 * Start tags as a browser tokenizes them. Text the site escapes has no raw
 * "<", so every "<letter" is a real tag; attribute values are decoded.
 */
function startTags(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    const attributes = new Map<string, string>();
    for (const attr of (match[2] ?? "").matchAll(
      /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g,
    )) {
      attributes.set(
        (attr[1] ?? "").toLowerCase(),
        decodeHtml(attr[2] ?? attr[3] ?? attr[4] ?? ""),
      );
    }
    tags.push({ name: (match[1] ?? "").toLowerCase(), attributes });
  }
  return tags;
}

const URL_ATTRIBUTES = [
  "href",
  "src",
  "action",
  "formaction",
  "poster",
  "srcset",
  "data",
  "cite",
  "xlink:href",
];

/** Problems a browser would act on: handlers, scripts not from the site, script URLs. */
function activeContent(html: string): string[] {
  const problems: string[] = [];
  for (const tag of startTags(html)) {
    for (const [name, value] of tag.attributes) {
      if (/^on/.test(name)) problems.push(`<${tag.name} ${name}="${value}">`);
      if (URL_ATTRIBUTES.includes(name)) {
        // Browsers ignore whitespace and control characters inside a scheme.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
        const scheme = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
        if (
          /^(javascript|vbscript|data:text\/html)/.test(scheme) ||
          scheme.includes(",javascript:")
        )
          problems.push(`<${tag.name} ${name}="${value}">`);
      }
    }
    if (tag.name === "script") {
      const src = tag.attributes.get("src");
      const type = tag.attributes.get("type");
      const fromSite =
        src !== undefined && (src.startsWith("/") || src.startsWith(`${DEMO_SITE_URL}/`));
      if (!fromSite && type !== "application/ld+json") problems.push(`<script> not from the site`);
    }
    if (tag.name === "iframe" || tag.name === "object" || tag.name === "embed") {
      const src = tag.attributes.get("src") ?? tag.attributes.get("data") ?? "";
      if (!src.startsWith("/") && !src.startsWith(`${DEMO_SITE_URL}/`))
        problems.push(`<${tag.name} src="${src}">`);
    }
  }
  return problems;
}

/** Reads feeds with a real XML parser; returns the HTML-bearing texts and the plain titles. */
const XML_READER = `
import json, sys, xml.etree.ElementTree as ET
ATOM = "{http://www.w3.org/2005/Atom}"
CONTENT = "{http://purl.org/rss/1.0/modules/content/}encoded"
out = {}
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        out[path] = {"error": str(error)}
        continue
    html, titles = [], []
    # RSS's channel description is plain text, as Atom's subtitle (RSS Best
    # Practices Profile); an item's description and content:encoded are HTML.
    channel = root.find("channel")
    plain = [] if channel is None else channel.findall("description")
    for el in root.iter():
        text = el.text or ""
        if el.tag.startswith(ATOM):
            (html if el.get("type") in ("html", "xhtml") else titles if el.tag == ATOM + "title" else []).append(text)
        elif el.tag in ("description", CONTENT):
            (titles if any(el is known for known in plain) else html).append(text)
        elif el.tag == "title":
            titles.append(text)
    out[path] = {"html": html, "titles": titles}
print(json.dumps(out))
`;

import { NOW } from "../helpers/clock.ts";
import { hasPythonModule, SYSTEM_PYTHON } from "../helpers/system-packages.ts";

interface XmlReading {
  readonly error?: string;
  readonly html: string[];
  readonly titles: string[];
}

/**
 * The titles an event page may show: the portal's title, with a status prefix for cancelled
 * events. The right-to-left title loses its override
 * (docs/configuration.md, "Text every output can carry").
 */
const EXACT_TITLES = [
  HOSTILE_TITLES.script,
  HOSTILE_TITLES.attribute,
  HOSTILE_TITLES.cdata,
  HOSTILE_TITLES.emoji,
];

describe("build from a hostile portal", () => {
  let work: string;
  let output: string;
  let portal: RunningPortal;
  let dataset: PortalDataset;
  let build: CommandRun;
  let files: string[];
  let deadOrigin: string;
  const text = (file: string) => readFileSync(join(output, file), "utf8");
  const ofType = (pattern: RegExp) => files.filter((file) => pattern.test(file));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ecp-hostile-"));
    output = join(work, "out", "_site");
    mkdirSync(join(work, "out"));
    // An origin where nothing listens, for the image that cannot be copied.
    const gone = await startPortal({ host: "127.0.0.1", port: 0 });
    await gone.close();
    deadOrigin = gone.origin;
    dataset = createHostileDataset({ deadOrigin });
    portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset });
    build = await buildSite(
      {
        EVENT_API_URL: portal.url,
        EVENT_API_TOKEN: portal.token,
        EVENT_API_CACHE_DIR: join(work, "cache"),
      },
      output,
    );
    files = build.status === 0 ? listTree(output) : [];
  });

  afterAll(async () => {
    await portal?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("should recognize every payload of the raw description as active content", () => {
    // Guards the page checks below: the scanner must see what the portal sent.
    const found = activeContent(HOSTILE_DESCRIPTION).join("\n");
    for (const marker of [
      "desc-onerror",
      "desc-href",
      "desc-href-mixed-case",
      "desc-href-entity",
      "desc-svg",
      "desc-iframe",
    ])
      expect(found).toContain(marker);
    expect(found).toContain("<script> not from the site");
  });

  it("should build successfully", () => {
    expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
    expect(files.length).toBeGreaterThan(0);
  });

  it("should write only inside the output folder, with paths unique even ignoring case", () => {
    for (const file of files) {
      const absolute = resolve(output, file);
      expect(absolute.startsWith(output + sep), file).toBe(true);
      expect(
        file.split("/").every((segment) => segment !== "" && !/^\.+$/.test(segment)),
        file,
      ).toBe(true);
    }
    // Nothing beside the output folder (staging folders removed, nothing escaped upwards).
    expect(readdirSync(join(work, "out"))).toEqual(["_site"]);
    expect(readdirSync(work).sort()).toEqual(["cache", "out"]);
    expect(new Set(files.map((file) => file.toLowerCase())).size).toBe(files.length);
  });

  it("should give every event its own page", () => {
    const eventPages = ofType(/^calendars\/[^/]+\/events\/[^/]+\/index\.html$/);
    // Skipped events are named in a warning; other warnings (an image not published) keep the page.
    const lines = `${build.stdout}${build.stderr}`.split("\n");
    const skipped = dataset.events.filter((event) =>
      lines.some((line) => line.includes(`"${event.id}"`) && line.includes(": skipped (")),
    );
    expect(eventPages.length + skipped.length).toBe(dataset.events.length);
    for (const event of dataset.events) {
      const page = `${paths.event(event.calendarId, event.id).slice(1)}index.html`;
      expect(files, `page of ${event.calendarId}/${event.id}`).toContain(page);
    }
  });

  it("should publish the portal's images only as checked raster copies, never an SVG nor a URL it could not copy", () => {
    // The portal's SVG is published as a PNG drawn from it; the unreachable image leaves its event without one.
    const media = ofType(/^media\//);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatch(/^media\/[0-9a-f]{32}\.png$/);
    const pages = ofType(/\.(html|xml|json|ics)$/);
    expect(pages.filter((file) => text(file).includes(deadOrigin))).toEqual([]);
    const [, unreachable] = dataset.events;
    const warning = `${build.stdout}${build.stderr}`
      .split("\n")
      .find((line) => line.includes(`event "${unreachable?.id}": image `));
    expect(warning).toMatch(/ not published: 127\.0\.0\.1, a loopback address/);
  });

  it("should show titles escaped, as the text the portal holds", () => {
    for (const event of dataset.events) {
      const html = text(`${paths.event(event.calendarId, event.id).slice(1)}index.html`);
      const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? "";
      expect(h1, `${event.id}`).not.toMatch(/<(?!\/?(span|bdi|small|strong|em)\b)/i);
      if ((EXACT_TITLES as readonly string[]).includes(event.title))
        expect(decodeHtml(h1.replace(/<[^>]*>/g, "")), event.id).toContain(event.title);
    }
    // A bidirectional override would turn the page around the title: it is not published.
    const rtlPage = dataset.events.find((event) => event.title === HOSTILE_TITLES.rtl);
    expect(rtlPage).toBeDefined();
    if (rtlPage) {
      const html = text(`${paths.event(rtlPage.calendarId, rtlPage.id).slice(1)}index.html`);
      expect(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]).toContain("مهرجان الربيع evil.exe");
    }
    for (const file of ofType(/\.(html|xml|json|ics)$/))
      expect(/[\u202a-\u202e]/.test(text(file)), file).toBe(false);
    const scriptPage = dataset.events.find((event) => event.title === HOSTILE_TITLES.script);
    expect(scriptPage).toBeDefined();
    if (scriptPage)
      expect(
        text(`${paths.event(scriptPage.calendarId, scriptPage.id).slice(1)}index.html`),
      ).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("should show a place's and a series' names escaped on their pages, and encoded in directions", () => {
    const placePages = ofType(/^places\/[^/]+\/index\.html$/);
    expect(placePages).toHaveLength(1);
    const place = text(placePages[0] as string);
    const name = `The "Quoted" Hall's <b>Annex</b>`;
    const h1 = /<h1>([\s\S]*?)<\/h1>/.exec(place)?.[1] ?? "";
    // Portal text keeps its own direction (<bdi>: docs/site.md, "Right to left").
    expect(h1).toBe("<bdi>The &quot;Quoted&quot; Hall&#39;s &lt;b&gt;Annex&lt;/b&gt;</bdi>");
    expect(decodeHtml(h1.replace(/<\/?bdi>/g, ""))).toBe(name);
    const [ld] = [...place.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
    const parsed = JSON.parse(ld?.[1] ?? "null") as {
      name: string;
      address: { streetAddress: string };
    };
    expect(parsed.name).toBe(name);
    expect(parsed.address.streetAddress).toBe(HOSTILE_TITLES.attribute);
    // The street's quote and markup reach the map services encoded, never as markup.
    const google = /href="(https:\/\/www\.google\.com\/maps\/dir\/[^"]*)"/.exec(place)?.[1] ?? "";
    expect(new URL(decodeHtml(google)).searchParams.get("destination")).toContain(
      HOSTILE_TITLES.attribute,
    );
    expect(google).not.toMatch(/[<>"]/);
    expect(text("places/index.html")).toContain("The &quot;Quoted&quot; Hall&#39;s &lt;b&gt;Annex");

    const seriesPages = ofType(/^calendars\/[^/]+\/series\/[^/]+\/index\.html$/);
    expect(seriesPages).toHaveLength(1);
    const series = text(seriesPages[0] as string);
    expect(series).toContain("<h1><bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi> <span");
    const ics = text(seriesPages[0]?.replace(/index\.html$/, "calendar.ics") ?? "");
    expect(ics).toContain("X-WR-CALNAME:<script>alert(1)</script> · ");
  });

  it("should publish no script, event handler, foreign frame or javascript: URL in any page", () => {
    const pages = ofType(/\.html$/);
    expect(pages.length).toBeGreaterThan(dataset.events.length);
    for (const page of pages) {
      const html = text(page);
      expect(activeContent(html), page).toEqual([]);
      expect(html, page).not.toMatch(/<script>alert/i);
      for (const match of html.matchAll(
        /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g,
      )) {
        expect(() => JSON.parse(match[1] ?? ""), page).not.toThrow();
      }
    }
  });

  it("should drop the description's active content from every file", () => {
    for (const file of files) {
      if (/\.(png|jpe?g|gif|webp|avif|ico)$/.test(file)) continue;
      const content = text(file);
      for (const marker of DROPPED_MARKERS)
        expect(content.includes(marker), `${marker} in ${file}`).toBe(false);
      expect(/javascript:/i.test(content), `javascript: in ${file}`).toBe(false);
    }
    // The harmless part of the description survives.
    const somePage = text(
      `${paths.event(dataset.events[0]?.calendarId ?? "", dataset.events[0]?.id ?? "").slice(1)}index.html`,
    );
    expect(somePage).toContain("Kept paragraph with <strong>bold</strong> text.");
    expect(somePage).toContain('href="https://example.org/safe"');
  });

  it.runIf(hasPythonModule("xml.etree.ElementTree"))(
    "should keep feeds well-formed, with hostile text never becoming markup",
    () => {
      const feeds = ofType(/\.xml$/);
      expect(feeds.length).toBeGreaterThan(3);
      const result = spawnSync(
        SYSTEM_PYTHON,
        ["-c", XML_READER, ...feeds.map((file) => join(output, file))],
        {
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      expect(result.status, result.stderr).toBe(0);
      const readings = JSON.parse(result.stdout) as Record<string, XmlReading>;
      const allTitles: string[] = [];
      for (const file of feeds) {
        const reading = readings[join(output, file)];
        expect(reading?.error, file).toBeUndefined();
        for (const html of reading?.html ?? []) expect(activeContent(html), file).toEqual([]);
        allTitles.push(...(reading?.titles ?? []));
        // Outside CDATA sections, data never opens an element.
        expect(text(file).replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ""), file).not.toMatch(
          /<(script|img|b)\b/i,
        );
      }
      // Plain-text titles arrive as the text itself (not double-escaped, not stripped).
      expect(allTitles.some((title) => title.includes(HOSTILE_TITLES.script))).toBe(true);
      expect(allTitles.some((title) => title.includes(HOSTILE_TITLES.emoji))).toBe(true);
    },
  );

  it("should write JSON that parses, with titles as plain strings", () => {
    const jsonFiles = ofType(/\.json$/);
    expect(jsonFiles.length).toBeGreaterThan(3);
    for (const file of jsonFiles) expect(() => JSON.parse(text(file)), file).not.toThrow();
    for (const calendar of dataset.calendars) {
      const list = JSON.parse(text(`api${paths.calendar(calendar.id)}events.json`)) as {
        events: { id: string; title: unknown }[];
      };
      const mine = dataset.events.filter((event) => event.calendarId === calendar.id);
      expect(list.events.map((event) => event.id).sort()).toEqual(
        mine.map((event) => event.id).sort(),
      );
      for (const event of list.events) {
        const source = mine.find((candidate) => candidate.id === event.id);
        expect(typeof event.title).toBe("string");
        if (source && (EXACT_TITLES as readonly string[]).includes(source.title))
          expect(event.title).toBe(source.title);
      }
    }
  });

  it("should write calendar files that ical.js reads, with titles as plain text", () => {
    const calendars = ofType(/\.ics$/);
    expect(calendars.length).toBeGreaterThan(dataset.events.length);
    for (const file of calendars) {
      const component = new ICAL.Component(ICAL.parse(text(file)));
      for (const vevent of component.getAllSubcomponents("vevent")) {
        for (const property of ["url", "attach", "image"]) {
          const value = String(vevent.getFirstPropertyValue(property) ?? "");
          expect(value, `${property} in ${file}`).not.toMatch(/^\s*javascript:/i);
        }
      }
    }
    for (const event of dataset.events) {
      const file = `${paths.event(event.calendarId, event.id).slice(1)}event.ics`;
      const vevent = new ICAL.Component(ICAL.parse(text(file))).getFirstSubcomponent("vevent");
      const summary = String(vevent?.getFirstPropertyValue("summary") ?? "");
      if ((EXACT_TITLES as readonly string[]).includes(event.title))
        expect(summary, file).toContain(event.title);
      // DESCRIPTION is plain text (RFC 5545 section 3.8.1.5): the sanitized description without its tags.
      const description = String(vevent?.getFirstPropertyValue("description") ?? "");
      expect(description, file).toContain("Kept paragraph with bold text.");
      expect(description, file).not.toContain("<strong>");
    }
  });
});
