/**
 * What the `feed` package leaves to its callers (src/outputs/feeds.ts, the
 * weekly digest's feed): xml-js escapes only quotes in attributes, splits
 * only the first "]]>" of a CDATA section, passes characters XML 1.0
 * forbids, and unescapes "&amp;" in text before escaping it. Text and
 * markup go through these before the package sees them.
 */

/** Characters outside the XML 1.0 Char production make a document ill-formed. */
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text.replace(XML_INVALID, "");
}

/** xml-js escapes only `"` in attribute values; `&` and `<` are ours to escape. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Text the package hands to xml-js as a text node. xml-js turns every
 * "&amp;" back into "&" before it escapes (so a title reading "&amp;" would
 * lose its "amp;"); written as "&amp;amp;", it comes out as the text was.
 */
export function textNode(text: string): string {
  return xmlText(text).replace(/&/g, "&amp;");
}

/** HTML bound for a CDATA section: "]]&gt;" means the same to an HTML parser. */
export function cdataHtml(html: string): string {
  return xmlText(html).replace(/]]>/g, "]]&gt;");
}
