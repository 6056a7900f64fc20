/**
 * Text that every output can carry. A portal's JSON can spell a lone UTF-16
 * surrogate ("\ud800"): encodeURIComponent throws on it (URIError), UTF-8
 * cannot encode it (a file writer silently turns it into U+FFFD), and XML
 * forbids it. XML 1.0 forbids the noncharacters U+FFFE and U+FFFF as well
 * (its Char production, section 2.2), so one of them in a title would make
 * every feed that carries it unreadable.
 *
 * Each becomes U+FFFD, the replacement character, as a UTF-8 decoder does
 * with bytes it cannot read (Unicode section 3.9, "U+FFFD Substitution").
 * String.prototype.toWellFormed (ES2024, Node 20) does the surrogates.
 */
export function wellFormedText(text: string): string {
  const formed = text.isWellFormed() ? text : text.toWellFormed();
  return NONCHARACTERS.test(formed) ? formed.replace(NONCHARACTERS_ALL, "\ufffd") : formed;
}

const NONCHARACTERS = /[\ufffe\uffff]/;
const NONCHARACTERS_ALL = /[\ufffe\uffff]/g;
