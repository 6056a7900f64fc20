import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ImageSource, Renderer } from "@takumi-rs/core";
import type { CardContent } from "./card-content.ts";
import { cardFonts } from "./card-fonts.ts";
import { type CardSize, cardNode, LAYOUT_VERSION } from "./card-layout.ts";
import { ScriptFonts } from "./script-fonts.ts";

/**
 * Draws cards into PNG files with Takumi (`@takumi-rs/core`): a native
 * renderer whose binaries come inside its npm packages, no browser. Each
 * render runs on libuv's thread pool, off the main thread, so several run at
 * once (src/cards/card-studio.ts decides how many). The same node tree, fonts
 * and image give the same bytes (checked by test/cards/card-renderer.test.ts).
 * docs/share-cards.md has why Takumi and what it costs.
 */

/** Renderer package version: another version may draw other pixels, so it is part of each card's key. */
const RENDERER_VERSION = packageVersion("@takumi-rs/core");

export interface RenderedCard {
  readonly size: CardSize;
  readonly png: Buffer;
}

export interface RenderResult {
  readonly cards: readonly RenderedCard[];
  /** Set when the event's image could not be drawn: the cards were drawn without it. */
  readonly imageProblem: string | null;
}

export class CardRenderer {
  readonly #renderer: Renderer;
  /** What every card's pixels depend on besides its content and size. */
  readonly fingerprint: string;
  /** The slices of the script fonts registered so far, by key (src/cards/script-fonts.ts). */
  readonly #slices = new Map<string, Promise<unknown>>();

  private constructor(renderer: Renderer, fingerprint: string) {
    this.#renderer = renderer;
    this.fingerprint = fingerprint;
  }

  static async open(): Promise<CardRenderer> {
    const renderer = new Renderer();
    for (const { file: _, ...font } of cardFonts().fonts) await renderer.registerFont(font);
    return new CardRenderer(renderer, rendererFingerprint());
  }

  /**
   * Registers the script fonts' slices the content's texts need, once each
   * per renderer. A card draws the same either way: each character is drawn
   * with the one slice its range and its text's font stack name, whatever
   * else is registered (test/cards/card-renderer.test.ts holds it).
   */
  async #registerScripts(content: CardContent): Promise<void> {
    const texts = [content.label, content.title, content.badge?.text ?? "", ...content.lines];
    const slices = [...texts, content.footer].flatMap((text) =>
      scriptFonts().slicesFor(text, content.lang),
    );
    const pending: Promise<unknown>[] = [];
    for (const slice of slices) {
      let registered = this.#slices.get(slice.key);
      if (!registered) {
        const { file: _, ...font } = ScriptFonts.font(slice);
        registered = this.#renderer.registerFont(font);
        this.#slices.set(slice.key, registered);
      }
      pending.push(registered);
    }
    await Promise.all(pending);
  }

  /**
   * The content's cards in these sizes. The event's image is read from where
   * the build keeps it and handed to the renderer under its name, which
   * decodes it once for all sizes (its decoded-image cache is keyed by that
   * name). An image that cannot be drawn leaves the cards without it (and
   * says so); it never fails the build.
   */
  async render(content: CardContent, sizes: readonly CardSize[]): Promise<RenderResult> {
    let image: ImageSource | null = null;
    let imageProblem: string | null = null;
    if (content.image) {
      try {
        image = { src: content.image.name, data: await readFile(content.image.cachePath) };
      } catch (error) {
        imageProblem = `the image ${content.image.name} could not be read (${(error as Error).message})`;
      }
    }
    await this.#registerScripts(content);
    const cards: RenderedCard[] = [];
    for (const size of sizes) {
      let png: Buffer;
      try {
        png = await this.#draw(content, size, image);
      } catch (error) {
        if (!image) throw error;
        imageProblem = `the image ${image.src} could not be drawn (${(error as Error).message})`;
        image = null;
        png = await this.#draw(content, size, null);
      }
      cards.push({ size, png });
    }
    return { cards, imageProblem };
  }

  #draw(content: CardContent, size: CardSize, image: ImageSource | null): Promise<Buffer> {
    return this.#renderer.render(cardNode(content, size, image?.src ?? null), {
      width: size.width,
      height: size.height,
      format: "png",
      images: image ? [image] : [],
    });
  }
}

/**
 * What every card's pixels depend on besides its content and size: the
 * renderer's version, the layout's and the font files. Part of each card's key.
 */
export function rendererFingerprint(): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        RENDERER_VERSION,
        LAYOUT_VERSION,
        cardFonts().fingerprint,
        scriptFonts().fingerprint,
      ]),
    )
    .digest("hex");
}

let scripts: ScriptFonts | undefined;

/** The script fonts' slices and ranges, read once per process (their files only when needed). */
function scriptFonts(): ScriptFonts {
  scripts ??= new ScriptFonts();
  return scripts;
}

/** Read from its package.json, which the package does not export: found above its entry file. */
function packageVersion(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (manifest.name === name) return String(manifest.version);
    } catch {
      // not here; one folder up
    }
  }
  throw new Error(`${name} is not installed.`);
}
