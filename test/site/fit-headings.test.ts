import { HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import { sanitizeDescription } from "../../src/model/sanitize.ts";
import { fitHeadings } from "../../src/site/fit-headings.ts";

const levels = (html: string) => [...html.matchAll(/<h(\d)>/g)].map((match) => Number(match[1]));

/** html-validate's heading-level rule on a page whose h1 is followed by the description. */
async function headingProblems(description: string): Promise<string[]> {
  const validator = new HtmlValidate({ rules: { "heading-level": "error" } });
  const page = `<!doctype html><html lang="en"><head><title>Event</title></head><body><h1>Event</h1>${description}</body></html>`;
  const report = await validator.validateString(page);
  return report.results.flatMap((result) => result.messages.map((message) => message.message));
}

describe("fit-headings", () => {
  it("should put a description's first heading right under the page's h1, keeping the others' places", async () => {
    const festival = sanitizeDescription(
      "<p>Three days.</p><h3>Highlights</h3><p>Music</p><h4>Sunday</h4><p>Brunch</p><h3>Tickets</h3>",
    );
    expect(await headingProblems(festival)).not.toEqual([]);
    const fitted = fitHeadings(festival);
    expect(levels(fitted)).toEqual([2, 3, 2]);
    expect(await headingProblems(fitted)).toEqual([]);
    expect(fitted).toBe(
      "<p>Three days.</p><h2>Highlights</h2><p>Music</p><h3>Sunday</h3><p>Brunch</p><h2>Tickets</h2>",
    );
  });

  it("should close a gap between headings and never go above the page's sections", () => {
    expect(levels(fitHeadings("<h2>A</h2><h4>B</h4><h4>C</h4>"))).toEqual([2, 3, 3]);
    expect(levels(fitHeadings("<h4>A</h4><h2>B</h2><h3>C</h3>"))).toEqual([2, 2, 3]);
    expect(levels(fitHeadings("<h2>A</h2><h3>B</h3><h4>C</h4>"))).toEqual([2, 3, 4]);
  });

  it("should leave everything but the heading tags as it was", () => {
    const description = sanitizeDescription(
      '<p>Fish &amp; chips &lt;3 "quoted"</p><ul><li><a href="https://example.org/?a=1&b=2">Link</a></li></ul>',
    );
    expect(fitHeadings(description)).toBe(description);
    expect(fitHeadings(`${description}<h3>More</h3>`)).toBe(`${description}<h2>More</h2>`);
  });
});
