import sanitizeHtml from "sanitize-html";

/**
 * A description's headings fitted into the page's outline. Portal editors
 * pick heading levels by their looks ("Highlights" as an h3 straight under
 * the page's title), and a level skipped is an outline a screen reader's
 * user cannot follow (HTML's headings, WCAG 1.3.1; the Nu Html Checker
 * reports each). Each heading is placed in the description's own outline:
 * one level below the nearest heading before it of a higher level, at `top`
 * (h2 on an event page, under its h1) when there is none. So h3, h4, h3
 * becomes h2, h3, h2, and h2, h4, h4 becomes h2, h3, h3.
 *
 * The HTML is the normalizer's sanitized description (src/model/sanitize.ts);
 * sanitize-html parses it again and changes nothing but the heading tags.
 */
export function fitHeadings(html: string, top = 2): string {
  if (!/<h[1-6][\s>]/i.test(html)) return html;
  // The open sections: each heading's level as written and as published.
  const open: { written: number; fitted: number }[] = [];
  const fit = (tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag => {
    const written = Number(tagName.slice(1));
    while ((open.at(-1)?.written ?? 0) >= written) open.pop();
    const fitted = Math.min((open.at(-1)?.fitted ?? top - 1) + 1, 6);
    open.push({ written, fitted });
    return { tagName: `h${fitted}`, attribs };
  };
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: { h1: fit, h2: fit, h3: fit, h4: fit, h5: fit, h6: fit },
  });
}
