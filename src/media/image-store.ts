import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { codeFingerprint } from "../code-fingerprint.ts";
import type { Validators } from "./image-download.ts";

/**
 * The images a build published, kept in EVENT_API_CACHE_DIR for the next:
 * each file under the name it is published with (a hash of its bytes and
 * its extension, so two URLs with the same bytes share one file, and the
 * name stays when only the portal's host or port changes), and per URL
 * which file it gave and the validators it came with, so the next build
 * asks the portal whether the image changed (src/media/image-download.ts)
 * instead of trusting the URL forever. An SVG's drawing is kept by the
 * SVG's bytes: the same SVG at another URL (the demo portal's port changes
 * every build) is not drawn again.
 */

/** What one URL gave: the published file and how to ask whether it changed. */
export interface StoredImage {
  /** "ab12….png": a hash of the bytes and the extension. */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly validators: Validators;
}

/** A published file, with its size in pixels. */
export type ImageFile = Omit<StoredImage, "validators">;

const NAME = /^[0-9a-f]{32}\.(jpg|png|gif|webp|avif)$/;

export class ImageStore {
  readonly dir: string;

  private constructor(dir: string) {
    this.dir = dir;
  }

  static async open(dir: string): Promise<ImageStore> {
    await mkdir(dir, { recursive: true });
    return new ImageStore(dir);
  }

  /** Where a published file is kept. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** What this URL gave last time, while its file is still here. */
  async forUrl(url: string): Promise<StoredImage | null> {
    const stored = await this.#readRecord<StoredImage>(`url-${digest(url)}.json`);
    return stored && (await this.#present(stored)) ? stored : null;
  }

  /** The drawing of this SVG (UTF-8 bytes), by a drawer of this code, while its file is here. */
  async drawingOf(svg: Buffer): Promise<ImageFile | null> {
    const drawn = await this.#readRecord<ImageFile>(drawingRecord(svg));
    return drawn && (await this.#present(drawn)) ? drawn : null;
  }

  /** Keeps a file to publish, named by its bytes. */
  async keep(bytes: Buffer, extension: string, size: Omit<ImageFile, "name">): Promise<ImageFile> {
    const name = `${digest(bytes)}.${extension}`;
    await writeFile(this.path(name), bytes);
    return { name, width: size.width, height: size.height };
  }

  async rememberUrl(url: string, image: StoredImage): Promise<void> {
    await writeFile(join(this.dir, `url-${digest(url)}.json`), JSON.stringify(image));
  }

  async rememberDrawing(svg: Buffer, image: ImageFile): Promise<void> {
    await writeFile(join(this.dir, drawingRecord(svg)), JSON.stringify(image));
  }

  async #readRecord<T extends ImageFile>(file: string): Promise<T | null> {
    try {
      const record = JSON.parse(await readFile(join(this.dir, file), "utf8")) as T;
      const valid =
        typeof record.name === "string" &&
        NAME.test(record.name) &&
        Number.isInteger(record.width) &&
        Number.isInteger(record.height);
      return valid ? record : null;
    } catch {
      return null;
    }
  }

  async #present(image: ImageFile): Promise<boolean> {
    return (await stat(this.path(image.name)).catch(() => null))?.isFile() ?? false;
  }
}

function digest(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 32);
}

/** Another version of the drawing code or renderer may draw other pixels: its fingerprint is in the key. */
function drawingRecord(svg: Buffer): string {
  return `svg-${createHash("sha256").update(codeFingerprint()).update(svg).digest("hex").slice(0, 32)}.json`;
}
