import { parseFragment, serialize } from "parse5";
import { describe, expect, it } from "vitest";
import { cutHtml } from "../../src/model/cut-html.ts";
import { textLength } from "../../src/model/cut-text.ts";
import { sanitizeDescription } from "../../src/model/sanitize.ts";

/** The fragment as an HTML parser reads it, written back: the same only when nothing was left open or broken. */
function asParsed(html: string): string {
  return serialize(parseFragment(html));
}

describe("cutHtml", () => {
  it("should keep a description within the limit as it is", () => {
    const html = "<p>Hello <strong>world</strong></p>";
    expect(cutHtml(html, html.length)).toBe(html);
  });

  it("should cut inside the text at a word, mark the cut and close what is open", () => {
    const html = sanitizeDescription(
      '<p>Bring <a href="https://example.org/x">what is broken and what you love</a>; we fix it.</p><p>More</p>',
    );
    const cut = cutHtml(html, 90);
    expect(cut).toBe(
      '<p>Bring <a href="https://example.org/x" rel="noopener noreferrer">what is broken…</a></p>',
    );
    expect(textLength(cut)).toBeLessThanOrEqual(90);
    expect(asParsed(cut)).toBe(cut);
  });

  it("should count markup, so that empty elements cannot grow a description either", () => {
    const html = sanitizeDescription("<p></p><br>".repeat(10_000) + "<hr>".repeat(10_000));
    const cut = cutHtml(html, 1_000);
    expect(textLength(cut)).toBeLessThanOrEqual(1_000);
    expect(cut.endsWith("<p>…</p>")).toBe(true);
  });

  it("should never cut inside a character reference, nor leave an element open", () => {
    const html = sanitizeDescription(`<ul><li>${"Tom &amp; Jerry &lt;3 ".repeat(200)}</li></ul>`);
    for (const max of [40, 41, 42, 43, 44, 45, 500, 1_001]) {
      const cut = cutHtml(html, max);
      expect(textLength(cut), `${max}`).toBeLessThanOrEqual(max);
      expect(cut, `${max}`).toMatch(/^<ul><li>.*…<\/li><\/ul>$/);
      expect(cut, `${max}`).not.toMatch(/&[a-z#0-9]*…/);
      expect(asParsed(cut), `${max}`).toBe(cut);
    }
  });

  it("should mark the cut where text may stand, also when it falls between elements", () => {
    const list = "<ul><li>one</li> <li>two</li> <li>three</li></ul><p>after</p>";
    for (let max = 8; max < list.length; max++) {
      const cut = cutHtml(list, max);
      expect(textLength(cut), `${max}`).toBeLessThanOrEqual(max);
      expect(cut, `${max}`).toContain("…");
      expect(asParsed(cut), `${max}`).toBe(cut);
      // Text is never a list's own child: a cut in a list ends in an item.
      expect(cut, `${max}`).not.toMatch(/<\/li>[^<]*…|<ul>[^<]*…/);
    }
  });
});
