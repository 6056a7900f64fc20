/**
 * Unicode's explicit directional formatting characters (UAX #9, "Unicode
 * Bidirectional Algorithm", section 2): the embeddings and overrides LRE,
 * RLE, LRO, RLO and their terminator PDF (U+202A-U+202E), and the isolates
 * LRI, RLI, FSI (U+2066-U+2068) with their terminator PDI (U+2069).
 *
 * An override reorders what follows it up to the end of its paragraph: a
 * title "Tickets \u202Eeerf" reads "Tickets free", and in a list line the
 * date, place and links after the title are turned around with it
 * ("Trojan Source" attacks play the same trick on source code). Plain
 * text from a portal is a line placed among the site's own words, so it
 * keeps no embedding or override: they are removed.
 *
 * Isolates are the safe way to write a right-to-left name inside
 * left-to-right text (and UAX #9 recommends them over embeddings): what they
 * enclose cannot reorder anything outside. They are kept, balanced: a PDI
 * without an opener is removed, and an opener left open is closed at the end
 * of the text, so that an isolate never spills into the text after it.
 */
export function tameBidiControls(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  let out = "";
  let open = 0;
  for (const char of text) {
    if (char >= "\u202a" && char <= "\u202e") continue;
    if (char >= "\u2066" && char <= "\u2068") open++;
    else if (char === PDI) {
      if (open === 0) continue;
      open--;
    }
    out += char;
  }
  return out + PDI.repeat(open);
}

/** How many isolates `text` opens and does not close: what tameBidiControls would close. */
export function openIsolates(text: string): number {
  if (!ANY_CONTROL.test(text)) return 0;
  let open = 0;
  for (const char of text) {
    if (char >= "\u2066" && char <= "\u2068") open++;
    else if (char === PDI && open > 0) open--;
  }
  return open;
}

const PDI = "\u2069";
const ANY_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
