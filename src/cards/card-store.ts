import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CardContent } from "./card-content.ts";
import type { CardSize } from "./card-layout.ts";

/**
 * Rendered cards kept between builds in the build's cache folder
 * (EVENT_API_CACHE_DIR/cards), one PNG per card, named by a hash of
 * everything its pixels depend on: the content (texts, colours, the image's
 * own hash), the size, and the renderer's fingerprint (its version, the
 * layout's version, the font files). The same name means the same bytes, so
 * a warm build renders nothing, and an edited event renders only its own
 * cards. The published file has the same name (src/cards/share-cards.ts):
 * an edited card gets a new address, which sites that keep a shared image
 * by its URL then fetch again.
 */
export class CardStore {
  readonly #dir: string;
  #ready = false;
  /**
   * The keys of the cards kept here, listed once when first asked: a build
   * asks for each of its cards, twice for most (early, then for its page),
   * and one listing of the folder costs less than a stat each (those took
   * 0.58 s of a CPU profile of a 100,000-event build, docs/performance.md,
   * item 27). Kept up to date with this store's own writes,
   * and listed again when it prunes (after each build); a card another
   * process writes meanwhile is missed and drawn again, to the same bytes.
   */
  #listed: Set<string> | null = null;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** One key per size, each 32 hex digits (128 bits of SHA-256). */
  keys(content: CardContent, sizes: readonly CardSize[], fingerprint: string): string[] {
    // The image by its name, a hash of its bytes: where the build keeps it does not change the card.
    const identity = JSON.stringify([
      fingerprint,
      { ...content, image: content.image?.name ?? null },
    ]);
    return sizes.map((size) =>
      createHash("sha256")
        .update(`${size.width}x${size.height}\n${identity}`)
        .digest("hex")
        .slice(0, 32),
    );
  }

  path(key: string): string {
    return join(this.#dir, `${key}.png`);
  }

  has(key: string): boolean {
    this.#listed ??= this.#list();
    return this.#listed.has(key);
  }

  /** Written whole or not at all: a build stopped halfway leaves no cut-short card. */
  write(key: string, png: Uint8Array): void {
    if (!this.#ready) {
      mkdirSync(this.#dir, { recursive: true });
      this.#ready = true;
    }
    const temporary = `${this.path(key)}.${process.pid}.tmp`;
    writeFileSync(temporary, png);
    renameSync(temporary, this.path(key));
    this.#listed?.add(key);
  }

  /** Removes every kept card but these; returns how many. */
  prune(keep: ReadonlySet<string>): number {
    let removed = 0;
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return 0;
    }
    // The folder as it now is, for the next build of a process that keeps this store (npm start).
    const listed = new Set<string>();
    for (const name of names) {
      // Only cards: another build's write in progress (a .tmp file) is left alone.
      if (!name.endsWith(".png")) continue;
      const key = name.slice(0, -4);
      if (keep.has(key)) {
        listed.add(key);
        continue;
      }
      rmSync(join(this.#dir, name), { force: true });
      removed++;
    }
    this.#listed = listed;
    return removed;
  }

  /** The keys of the cards in the folder now (none when there is no folder yet). */
  #list(): Set<string> {
    try {
      return new Set(
        readdirSync(this.#dir)
          .filter((name) => name.endsWith(".png"))
          .map((name) => name.slice(0, -4)),
      );
    } catch {
      return new Set();
    }
  }
}
