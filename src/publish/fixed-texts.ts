/**
 * Texts of one length by place, as bytes in one buffer: the hashes and the
 * inputs' digests of the last publish's file list (22 characters of
 * base64url each, src/short-hash.ts), two for each of up to 630,000 files.
 * A text of its own holds 49 bytes of heap for 22 characters, and its
 * array's slot 4 more (What changed, item 65, in docs/performance.md); here
 * a text holds its 22 bytes, and is made again when asked. A text of
 * another length, or with a character outside printable ASCII, is kept as
 * it is, aside: the list is read from a file, and any text it has must
 * come back the same.
 */
export class FixedTexts {
  readonly #length: number;
  #bytes: Buffer;
  /** The texts kept as they are, by place. */
  readonly #aside = new Map<number, string>();

  constructor(length: number, places = 1024) {
    this.#length = length;
    this.#bytes = Buffer.alloc(length * places);
  }

  /** The text at a place; undefined for none. */
  get(place: number): string | undefined {
    const start = place * this.#length;
    const first = this.#bytes[start];
    if (first === undefined || first === NONE) return undefined;
    if (first === ASIDE) return this.#aside.get(place);
    return this.#bytes.toString("latin1", start, start + this.#length);
  }

  /** Sets the text at a place, or none. */
  set(place: number, text: string | undefined): void {
    const start = place * this.#length;
    this.#room(start + this.#length);
    this.#aside.delete(place);
    const bytes = this.#bytes;
    if (text === undefined) {
      bytes[start] = NONE;
      return;
    }
    if (text.length === this.#length && PLAIN.test(text)) {
      bytes.write(text, start, this.#length, "latin1");
      return;
    }
    bytes[start] = ASIDE;
    this.#aside.set(place, text);
  }

  /** Makes the buffer at least `end` bytes long, doubling it. */
  #room(end: number): void {
    if (end <= this.#bytes.length) return;
    const grown = Buffer.alloc(Math.max(end, this.#bytes.length * 2));
    this.#bytes.copy(grown);
    this.#bytes = grown;
  }
}

/** A text the bytes can hold: printable ASCII, so neither marker. */
const PLAIN = /^[\x20-\x7e]*$/;
/** A place with no text: a character no text of the buffer has. */
const NONE = 0;
/** A place whose text is kept aside: a byte no text of the buffer has. */
const ASIDE = 0x7f;
