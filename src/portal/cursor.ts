import type { SortKey } from "./store.ts";

/**
 * Opaque keyset cursors: base64url of the list's tag and the sort key of the
 * last item served. A page starts after that key, so walking a list while
 * events change never skips or repeats an unchanged event (as offsets would).
 * The tag binds a cursor to its list: a cursor from another calendar is a 400.
 */
export function encodeCursor(tag: string, key: SortKey): string {
  const [primary, id] = key;
  const kind = typeof primary === "number" ? "n" : "s";
  return Buffer.from(`${tag}\n${kind}${primary}\n${id}`, "utf8").toString("base64url");
}

export function decodeCursor(tag: string, cursor: string): SortKey | undefined {
  if (cursor.length === 0 || cursor.length > 1024) return undefined;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // Buffer's decoder is lenient; only the canonical encoding is a valid cursor.
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return undefined;
  const parts = text.split("\n");
  if (parts.length !== 3 || parts[0] !== tag) return undefined;
  const [, primary = "", id = ""] = parts;
  if (primary.startsWith("n")) {
    const value = Number(primary.slice(1));
    return Number.isSafeInteger(value) ? [value, id] : undefined;
  }
  return primary.startsWith("s") ? [primary.slice(1), id] : undefined;
}
