/**
 * Text cut to a length limit (src/model/record-limits.ts), where a reader
 * would cut it: after a whole word when one ends near the limit, else after
 * a whole grapheme (a user-perceived character: an emoji with its skin tone
 * or family members, a letter with its accents, a flag), never inside one;
 * and marked with "…", so that no reader takes the part for the whole.
 * Boundaries are Unicode's (UAX #29, "Text Segmentation") as Intl.Segmenter
 * finds them.
 *
 * Lengths count characters as Unicode code points: an emoji is one, as a
 * reader counts it, and a limit bounds the bytes too (at most four per
 * character in UTF-8).
 */

export const ELLIPSIS = "…";

/** Characters (code points) in `text`, counting at most up to `atMost + 1`. */
export function textLength(text: string, atMost = Number.POSITIVE_INFINITY): number {
  // A code point is one or two UTF-16 units: a short text needs no counting.
  if (text.length <= atMost) return countCodePoints(text, text.length);
  return countCodePoints(text, atMost + 1);
}

/** `text` when it has at most `max` characters; else its start and "…", `max` characters in all. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return "";
  const keep = endOfCodePoints(text, max);
  if (keep === text.length) return text;
  // Room for the ellipsis.
  const end = endOfCodePoints(text, max - 1);
  const grapheme = lastBoundary(GRAPHEMES, text, end);
  const word = lastBoundary(WORDS, text, grapheme);
  // A word boundary is worth a shorter text only when it is near: a long word
  // (a URL, a run of letters with no spaces) is cut inside, at a grapheme.
  const cut = word > 0 && grapheme - word <= Math.min(WORD_SLACK, grapheme / 4) ? word : grapheme;
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/** How far back a word boundary is taken rather than a cut inside the word. */
const WORD_SLACK = 40;

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const WORDS = new Intl.Segmenter(undefined, { granularity: "word" });

/**
 * The last boundary at or before the UTF-16 index `end`. Only a window
 * before it is segmented: a boundary depends on a few characters around it
 * (UAX #29's rules), never on the rest of a text that may be megabytes
 * long. Where the window holds none (a "character" of hundreds of combining
 * marks is no text a portal means), its start is taken.
 */
function lastBoundary(segmenter: Intl.Segmenter, text: string, end: number): number {
  const start = codePointStart(text, Math.max(0, end - WINDOW));
  let boundary = start;
  for (const { index, segment } of segmenter.segment(text.slice(start, end + LOOKAHEAD))) {
    const after = start + index + segment.length;
    if (after > end) break;
    // The window's start is a boundary only where the text starts.
    if (start === 0 || index > 0) boundary = after;
  }
  return boundary;
}

const WINDOW = 256;
const LOOKAHEAD = 32;

/** `index`, or one before it when it would split a surrogate pair. */
function codePointStart(text: string, index: number): number {
  return index > 0 && isLeadingSurrogatePair(text, index - 1) ? index - 1 : index;
}

/** The UTF-16 index after the first `count` code points (the text's length if it has fewer). */
function endOfCodePoints(text: string, count: number): number {
  let index = 0;
  for (let n = 0; n < count && index < text.length; n++) {
    index += isLeadingSurrogatePair(text, index) ? 2 : 1;
  }
  return index;
}

function countCodePoints(text: string, atMost: number): number {
  let n = 0;
  for (let index = 0; index < text.length && n < atMost; n++) {
    index += isLeadingSurrogatePair(text, index) ? 2 : 1;
  }
  return n;
}

function isLeadingSurrogatePair(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdbff) return false;
  const next = text.charCodeAt(index + 1);
  return next >= 0xdc00 && next <= 0xdfff;
}
