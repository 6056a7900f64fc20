/**
 * RSS plain text in the form the RSS Best Practices Profile asks for
 * (rssboard.org/rss-profile, "Character Data"): RSS 2.0 never said whether
 * its titles and descriptions hold text or HTML, so aggregators differ, and
 * the one encoding of "&", "<" and ">" that all of them read as the character
 * is the hexadecimal character reference (`&#x26;`, `&#x3C;`, `&#x3E;`),
 * outside any CDATA section. The feed validators flag anything else in an
 * element that holds plain text (the channel's title and description, item
 * titles, categories).
 *
 * The `feed` package writes item titles as CDATA and the other text through
 * xml-js, which escapes with named references; both are turned into the
 * profile's form here, on the package's output.
 */

const HEX: Readonly<Record<string, string>> = { "&": "&#x26;", "<": "&#x3C;", ">": "&#x3E;" };

/** Plain text with "&", "<" and ">" as the profile's character references. */
export function rssText(text: string): string {
  return text.replace(/[&<>]/g, (char) => HEX[char] ?? char);
}

/** xml-js's named references (the only ones it writes) as the profile's. */
const NAMED: Readonly<Record<string, string>> = { amp: "&#x26;", lt: "&#x3C;", gt: "&#x3E;" };

/**
 * The `feed` package's RSS in the profile's form: each item title's CDATA
 * section becomes the text it holds (the title is given to the package in
 * the profile's form already, rssText: no "<" or ">", so no "]]>" either), and outside
 * CDATA sections (where HTML is, and stays) every `&amp;`, `&lt;` and `&gt;`
 * xml-js wrote becomes its hexadecimal reference: the same characters to
 * any XML parser, in every text and attribute.
 */
export function rssCharacterData(xml: string): string {
  const opened = xml.replace(/<title><!\[CDATA\[([^<>]*)\]\]><\/title>/g, "<title>$1</title>");
  return opened
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/&(amp|lt|gt);/g, (ref, name: string) => NAMED[name] ?? ref),
    )
    .join("");
}
