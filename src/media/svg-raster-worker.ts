import { Renderer } from "@takumi-rs/core";

/**
 * The process that draws portal SVGs into PNGs (src/media/svg-raster.ts
 * starts it and kills it when a drawing overruns its deadline). Takumi
 * draws on libuv's threads, where a native render cannot be stopped: a
 * 400-byte SVG with a large feMorphology radius kept it busy for minutes
 * (docs/site.md, "Images"), so only a process of its own can be stopped.
 */

export interface RasterJob {
  readonly id: number;
  /** The SVG as UTF-8 (src/media/svg-text.ts). */
  readonly svg: Uint8Array;
  readonly width: number;
  readonly height: number;
}

export type RasterReply =
  | { readonly id: number; readonly png: Uint8Array }
  | { readonly id: number; readonly error: string }
  /** Sent once, when the renderer is loaded: a drawing's deadline starts from there. */
  | { readonly ready: true };

if (!process.send) {
  throw new Error("svg-raster-worker.ts runs as a child process (src/media/svg-raster.ts).");
}
const send = process.send.bind(process);
// Nothing kept between drawings: each SVG is drawn once.
const renderer = new Renderer({ cacheMaxBytes: 0 });

process.on("message", async ({ id, svg, width, height }: RasterJob) => {
  try {
    const png = await renderer.render(
      { type: "image", src: "portal.svg", style: { width, height } },
      { width, height, format: "png", images: [{ src: "portal.svg", data: svg, cache: "none" }] },
    );
    send({ id, png } satisfies RasterReply);
  } catch (error) {
    send({ id, error: (error as Error).message } satisfies RasterReply);
  }
});
// The build is gone (or done): so is this.
process.on("disconnect", () => process.exit(0));
send({ ready: true } satisfies RasterReply);
