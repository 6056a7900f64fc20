import { type DefaultTreeAdapterMap, parse, parseFragment } from "parse5";

/*
 * What a reader reads on a page, as a browser parses it (parse5): each text
 * node, and the attributes a browser shows or reads out (title, aria-label,
 * placeholder, alt). Code a page shows as code (<code>, <pre>) and what is
 * not text (<script>, <style>) are left out.
 */

/** One text of a page: where it stands (a tag, or a tag's attribute) and what it says. */
export interface PageText {
  readonly where: string;
  readonly text: string;
}

type Node = DefaultTreeAdapterMap["node"];

const READ_ATTRIBUTES = ["title", "aria-label", "placeholder", "alt"];
const NOT_READ = new Set(["script", "style", "code", "pre", "template"]);

/** Every text node and read attribute of a document, in document order. */
export function pageTexts(html: string): PageText[] {
  const found: PageText[] = [];
  const visit = (node: Node, parent: string): void => {
    if (node.nodeName === "#text" && "value" in node) {
      if (node.value.trim()) found.push({ where: parent, text: node.value });
      return;
    }
    if (!("tagName" in node)) {
      for (const child of childrenOf(node)) visit(child, parent);
      return;
    }
    if (NOT_READ.has(node.tagName)) return;
    for (const attr of node.attrs) {
      if (READ_ATTRIBUTES.includes(attr.name) && attr.value.trim()) {
        found.push({ where: `${node.tagName}@${attr.name}`, text: attr.value });
      }
    }
    for (const child of childrenOf(node)) visit(child, node.tagName);
  };
  // As a browser without scripts reads it: <noscript> holds markup, not text.
  visit(parse(html, { scriptingEnabled: false }), "");
  return found;
}

/** The text nodes of an HTML fragment (a portal's description), each as one text. */
export function fragmentTexts(html: string): string[] {
  const found: string[] = [];
  const visit = (node: Node): void => {
    if (node.nodeName === "#text" && "value" in node) found.push(node.value);
    for (const child of childrenOf(node)) visit(child);
  };
  visit(parseFragment(html) as unknown as Node);
  return found;
}

function childrenOf(node: Node): readonly Node[] {
  return "content" in node ? node.content.childNodes : "childNodes" in node ? node.childNodes : [];
}
