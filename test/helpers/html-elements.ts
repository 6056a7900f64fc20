import { type DefaultTreeAdapterMap, parse } from "parse5";

/*
 * Pages read as a browser reads them: parse5 is the HTML standard's parsing
 * algorithm, so what it finds is what a browser would build, whatever a
 * regular expression over the markup would have missed.
 */

export interface HtmlElement {
  /** Lowercase, as parsed. */
  readonly tagName: string;
  /** Attribute values decoded, by lowercase name. */
  readonly attributes: ReadonlyMap<string, string>;
  /** The element's text, its descendants' included (a script's or style's too). */
  readonly text: string;
}

type Node = DefaultTreeAdapterMap["node"];

/** Every element of a document, in document order. */
export function htmlElements(html: string): HtmlElement[] {
  const found: HtmlElement[] = [];
  const visit = (node: Node): void => {
    if ("tagName" in node) {
      found.push({
        tagName: node.tagName,
        attributes: new Map(node.attrs.map((attr) => [attr.name, attr.value])),
        text: textOf(node),
      });
    }
    const children =
      "content" in node ? node.content.childNodes : "childNodes" in node ? node.childNodes : [];
    for (const child of children) visit(child);
  };
  visit(parse(html));
  return found;
}

function textOf(node: Node): string {
  if (node.nodeName === "#text" && "value" in node) return node.value;
  const children =
    "content" in node ? node.content.childNodes : "childNodes" in node ? node.childNodes : [];
  return children.map(textOf).join("");
}
