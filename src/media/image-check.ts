import { imageSize } from "image-size";
import { isWholeImage } from "./image-ends.ts";
import { ImageRefused } from "./image-refused.ts";
import { svgAsUtf8 } from "./svg-text.ts";

/**
 * What an image file really is, checked against what the server declared:
 * its kind from its first bytes (the magic numbers, read by `image-size`),
 * its width and height from its header, nothing decoded. A body that is not
 * what its Content-Type says (an HTML page labelled image/png, a few bytes
 * of noise) is refused, and so is a cut-short file and a picture of more
 * pixels than MAX_PIXELS: a 100 KB PNG can unpack to 900 megapixels, which
 * every browser, feed reader and the share cards' renderer would have to
 * hold in memory.
 */

export type ImageFormat = "jpg" | "png" | "gif" | "webp" | "avif" | "svg";

/** The media types an event image may have, and the extension it is published with. */
export const DECLARED_FORMATS: Readonly<Record<string, ImageFormat>> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/svg+xml": "svg",
};

const NAMES: Readonly<Record<ImageFormat, string>> = {
  jpg: "JPEG",
  png: "PNG",
  gif: "GIF",
  webp: "WebP",
  avif: "AVIF",
  svg: "SVG",
};

/**
 * What a browser draws an SVG at when it states no size (CSS 2 10.3.2 and
 * 10.6.2, the replaced element's default 300 x 150).
 */
const SVG_DEFAULT_SIZE = { width: 300, height: 150 } as const;

export interface CheckedImage {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** The file; an SVG decoded by its real encoding and given as UTF-8 (src/media/svg-text.ts). */
  readonly bytes: Buffer;
}

/** Throws ImageRefused when the file is not what it says, is cut short or is too large a picture. */
export function checkImage(bytes: Buffer, declaredType: string, maxPixels: number): CheckedImage {
  const format = DECLARED_FORMATS[declaredType];
  if (!format) throw new ImageRefused(`unsupported content type "${declaredType}"`, "refused");
  if (format === "svg") {
    const text = svgAsUtf8(bytes);
    return { format, ...svgSize(text), bytes: text };
  }
  const found = sniff(bytes);
  if (found?.format !== format) {
    const what = found ? `a ${NAMES[found.format]}` : "not an image of a known kind";
    throw new ImageRefused(`declared ${declaredType}, but the file is ${what}`, "refused");
  }
  const { width, height } = found;
  if (!(width > 0 && height > 0) || width * height > maxPixels) {
    throw new ImageRefused(
      `${width} x ${height} pixels, over the ${maxPixels / 1e6} million allowed`,
      "refused",
    );
  }
  if (!isWholeImage(format, bytes)) {
    throw new ImageRefused(`a cut-short ${NAMES[format]} file`, "refused");
  }
  return { format, width, height, bytes };
}

function sniff(bytes: Buffer): { format: ImageFormat; width: number; height: number } | null {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return null;
  }
  const format = size.type === "jpg" ? "jpg" : (size.type as ImageFormat);
  if (!(format in NAMES) || format === "svg") return null;
  return { format, width: size.width, height: size.height };
}

/** The size an SVG states (width and height, else its viewBox), else a browser's default. */
function svgSize(text: Buffer): { width: number; height: number } {
  try {
    const size = imageSize(text);
    if (size.type === "svg" && size.width > 0 && size.height > 0) {
      return { width: size.width, height: size.height };
    }
  } catch {
    // no size stated, or not an SVG: the rasterizer decides (src/media/svg-raster.ts)
  }
  return SVG_DEFAULT_SIZE;
}
