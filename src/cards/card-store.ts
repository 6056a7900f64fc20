import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
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
    return existsSync(this.path(key));
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
    for (const name of names) {
      // Only cards: another build's write in progress (a .tmp file) is left alone.
      if (!name.endsWith(".png") || keep.has(name.slice(0, -4))) continue;
      rmSync(join(this.#dir, name), { force: true });
      removed++;
    }
    return removed;
  }
}
