import { ImageRefused } from "./image-refused.ts";

/**
 * An SVG file as UTF-8, decoded by its real encoding (XML 1.0, 4.3.3 and
 * appendix F): a byte order mark first, else the XML declaration's
 * `encoding`, else UTF-8. A file in UTF-16 or Latin-1 is the same drawing
 * as its UTF-8 twin, and reads as one from here on; a file that is not
 * valid in its encoding, or names one no decoder knows, is refused. The
 * declaration is dropped, since the bytes no longer match what it says
 * (without one, XML is UTF-8).
 */
export function svgAsUtf8(bytes: Buffer): Buffer {
  const encoding = encodingOf(bytes);
  let text: string;
  try {
    // Strips a byte order mark of its own encoding.
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch (error) {
    const reason = error instanceof RangeError ? "an unknown encoding" : `invalid ${encoding}`;
    throw new ImageRefused(`an SVG in ${reason}`, "refused");
  }
  return Buffer.from(text.replace(XML_DECLARATION, ""), "utf8");
}

const XML_DECLARATION = /^\s*<\?xml\s[^?]*\?>/;
const DECLARED_ENCODING = /^\s*<\?xml\s[^?]*\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/;

function encodingOf(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  // Without a mark, the declaration is in ASCII-compatible bytes (XML 1.0, F.1).
  const head = bytes.subarray(0, 256).toString("latin1");
  return DECLARED_ENCODING.exec(head)?.[1]?.toLowerCase() ?? "utf-8";
}
