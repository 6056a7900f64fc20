import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIGEST_MAX_BYTES } from "../../src/digest/digest-budget.ts";
import { renderDigestHtml } from "../../src/digest/digest-html.ts";
import { renderDigestText } from "../../src/digest/digest-text.ts";
import { Digests } from "../../src/digest/digests.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { RunningPortal } from "../../src/portal/index.ts";
import { calendarEvent } from "../helpers/events.ts";
import { snapshotOf } from "../helpers/fetch-portal.ts";
import { htmlElements } from "../helpers/html-elements.ts";
import { siteDataOf } from "../helpers/plugin-site.ts";
import { apiEnv } from "../helpers/portal-env.ts";
import { startSyntheticPortal } from "../helpers/synthetic-portal.ts";
import { TEST_SITE } from "../helpers/test-site.ts";

/** Gmail clips a message's HTML past 102 KB. */
const GMAIL_CLIP = 102 * 1024;

/** What a mail client reads: no script, every image described, every address absolute. */
function expectMailSafe(html: string): void {
  const elements = htmlElements(html);
  expect(
    elements.filter((e) => ["script", "form", "iframe", "object"].includes(e.tagName)),
  ).toEqual([]);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  for (const image of elements.filter((e) => e.tagName === "img")) {
    expect(image.attributes.get("alt")?.trim(), image.attributes.get("src")).toBeTruthy();
    expect(image.attributes.get("src")).toMatch(/^https:\/\//);
  }
  const links = elements.filter((e) => e.tagName === "a").map((e) => e.attributes.get("href"));
  expect(links.length).toBeGreaterThan(0);
  for (const href of links) expect(href).toMatch(/^https:\/\/events\.example\.org\//);
}

describe("digest-html", () => {
  let portal: RunningPortal;
  let html = "";
  let text = "";

  beforeAll(async () => {
    // 5,000 events over eight months: about 150 a week, 20 a day.
    portal = await startSyntheticPortal(5, 1000, { seed: 1 });
    const snapshot = await snapshotOf(apiEnv(portal));
    const digest = new Digests(siteDataOf(snapshot, TEST_SITE), TEST_SITE).latest({ kind: "site" });
    html = renderDigestHtml(digest);
    text = renderDigestText(digest);
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it("should stay under Gmail's clipping size on a large portal, and link to what it leaves out", () => {
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(DIGEST_MAX_BYTES);
    expect(Buffer.byteLength(html)).toBeLessThan(GMAIL_CLIP);
    expect(html).toMatch(/and \d+ more on the site/);
    expect(text).toMatch(/and \d+ more on the site: https:\/\/events\.example\.org\/search\/\?/);
  });

  it("should be a mail: no script, images with text alternatives, absolute links only", () => {
    expectMailSafe(html);
  });

  it("should carry its styles inline and its dark colours for the clients that keep a style element", () => {
    const elements = htmlElements(html);
    const meta = elements.find(
      (e) => e.tagName === "meta" && e.attributes.get("name") === "color-scheme",
    );
    expect(meta?.attributes.get("content")).toBe("light dark");
    const styles = elements.filter((e) => e.tagName === "style").map((e) => e.text);
    expect(styles.join("\n")).toContain("@media (prefers-color-scheme: dark)");
    // Everything but the media queries is inline: no rule outside them is left.
    expect(
      styles
        .join("\n")
        .replace(/@media[^{]*\{(?:[^{}]*\{[^}]*\})*[^}]*\}/g, "")
        .trim(),
    ).toBe("");
    const title = elements.find((e) => e.tagName === "a" && e.attributes.get("class") === "title");
    expect(title?.attributes.get("style")).toContain("color:");
    const container = elements.find((e) => e.attributes.get("class") === "container");
    // Outlook on Windows reads widths, backgrounds and alignment from attributes only.
    expect(container?.attributes.get("width")).toBe("600");
    const page = elements.find((e) => e.attributes.get("class") === "page");
    expect(page?.attributes.get("bgcolor")).toBe("#ffffff");
    const lines = elements.filter((e) => e.attributes.get("class") === "line");
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(line.attributes.get("valign")).toBe("top");
  });

  it("should show a new event's picture by its absolute address, described by its text or else the event's title", () => {
    const pictured = (id: string, alt: string) =>
      calendarEvent({
        id,
        calendarId: "culture",
        title: `Opening <${id}>`,
        start: "2026-04-18T20:00:00+02:00",
        end: "2026-04-18T22:00:00+02:00",
        // In the seven days before the week's digest came out (Sunday 15 March).
        createdAt: "2026-03-10T09:00:00Z",
        image: { url: `https://events.example.org/media/${id}.png`, alt, width: 8, height: 8 },
      });
    const digest = new Digests(
      {
        events: [pictured("described", 'A "quiet" <b>hall</b>'), pictured("undescribed", "")],
        calendars: [],
        categories: [],
        announcements: [],
      },
      TEST_SITE,
    ).latest({ kind: "site" });
    const mail = renderDigestHtml(digest);
    const images = htmlElements(mail).filter((e) => e.tagName === "img");
    expect(images.map((e) => [e.attributes.get("src"), e.attributes.get("alt")])).toEqual([
      ["https://events.example.org/media/described.png", 'A "quiet" <b>hall</b>'],
      ["https://events.example.org/media/undescribed.png", "Opening <undescribed>"],
    ]);
    expectMailSafe(mail);
  });

  it("should hold a week of long titles to the budget by showing fewer events, each list saying how many more", () => {
    // Four bytes a character in UTF-8, and markup to escape: 150 of them a title and a place.
    const long = "🎷🎻🥁🎺 <&> ".repeat(40);
    const events: CalendarEvent[] = Array.from({ length: 7 * 12 }, (_, i) => {
      const day = 16 + Math.floor(i / 12);
      const hour = String(8 + (i % 12)).padStart(2, "0");
      return calendarEvent({
        id: `e${i}`,
        calendarId: "culture",
        title: `${long}${i}`,
        start: `2026-03-${day}T${hour}:00:00+01:00`,
        end: `2026-03-${day}T${hour}:30:00+01:00`,
        location: { name: long, address: null, geo: null },
      });
    });
    const digest = new Digests(
      { events, calendars: [], categories: [], announcements: [] },
      TEST_SITE,
    ).latest({ kind: "site" });
    // As the lists are (ten a day), the mail would be over: it is rendered with fewer.
    const shown = digest.sections.reduce((sum, s) => sum + s.lines.length, 0);
    expect(shown).toBe(70);
    const hostile = renderDigestHtml(digest);
    expect(Buffer.byteLength(hostile)).toBeLessThanOrEqual(DIGEST_MAX_BYTES);
    const rows = htmlElements(hostile).filter((e) => e.attributes.get("class") === "title");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(70);
    expect(hostile.match(/and \d+ more on the site/g)).toHaveLength(7);
    expect(hostile).not.toContain("<&>");
    expectMailSafe(hostile);
    expect(Buffer.byteLength(renderDigestText(digest))).toBeLessThanOrEqual(DIGEST_MAX_BYTES);
  });
});
