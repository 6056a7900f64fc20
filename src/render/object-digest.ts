import { contentHash } from "./published-files.ts";

/**
 * A digest of plain data (objects, arrays, strings, numbers...), made once
 * per object and remembered by identity, so that an object shared by many
 * pages (a category's summary, a calendar) is read once per build however
 * many pages show it. `leaf` may stand for an object with a text of its own
 * (an event by its digest); undefined reads the object field by field.
 *
 * Only plain data is read: a Map, a Set, a class instance or a cycle
 * throws, since what it holds would otherwise be missed (the caller then
 * names no inputs and renders; src/eleventy/listing-page-inputs.ts).
 */
export class ObjectDigests {
  readonly #leaf: (value: object) => string | undefined;
  readonly #known = new WeakMap<object, string>();
  readonly #open = new Set<object>();

  constructor(leaf: (value: object) => string | undefined) {
    this.#leaf = leaf;
  }

  /** The value as text: short texts as they are, longer ones by their hash. */
  of(value: unknown): string {
    if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
    const known = this.#known.get(value);
    if (known !== undefined) return known;
    const text = this.#leaf(value) ?? this.#fields(value);
    const digest = text.length > 64 ? `#${contentHash(text)}` : text;
    this.#known.set(value, digest);
    return digest;
  }

  #fields(value: object): string {
    if (this.#open.has(value)) throw new Error("The data holds a cycle.");
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return JSON.stringify(value);
    this.#open.add(value);
    try {
      if (Array.isArray(value)) return `[${value.map((item) => this.of(item)).join(",")}]`;
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null)
        throw new Error(`Not plain data: ${prototype?.constructor?.name ?? "unknown"}.`);
      const fields: string[] = [];
      for (const [key, field] of Object.entries(value)) {
        if (field === undefined || typeof field === "function") continue;
        fields.push(`${JSON.stringify(key)}:${this.of(field)}`);
      }
      return `{${fields.join(",")}}`;
    } finally {
      this.#open.delete(value);
    }
  }
}
