import { crc32, inflateSync } from "node:zlib";

/**
 * A PNG file read the way an image viewer reads it, with nothing but Node:
 * the signature, every chunk's CRC, the header (IHDR) and the pixels
 * (IDAT inflated and unfiltered). Greyscale, RGB and RGBA of 8 bits, and
 * palette images (1 to 8 bits, what the renderer writes when a card has 256
 * colours or fewer), without interlacing; anything else is refused.
 */
export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** 0 greyscale, 2 RGB, 3 palette, 6 RGBA (PNG colour types). */
  readonly colorType: number;
  /** Row after row, 3 bytes (RGB) a pixel, whatever the file's colour type. */
  readonly pixels: Uint8Array;
  /** "#rrggbb" of the pixel at x, y. */
  hexAt(x: number, y: number): string;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 6: 4 };

/** Width and height from the header alone. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const { header } = readChunks(bytes);
  return { width: header.readUInt32BE(0), height: header.readUInt32BE(4) };
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const { header, data, palette } = readChunks(bytes);
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colorType, compression, filter, interlace] = header.subarray(
    8,
    13,
  ) as unknown as number[];
  const channels = CHANNELS[colorType as number];
  const supported =
    colorType === 3 ? [1, 2, 4, 8].includes(depth as number) && palette !== null : depth === 8;
  if (!channels || !supported || compression !== 0 || filter !== 0 || interlace !== 0) {
    throw new Error(
      `unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`,
    );
  }
  const bits = (depth as number) * channels;
  const bpp = Math.max(1, bits / 8);
  const stride = Math.ceil((width * bits) / 8);
  const raw = inflateSync(data);
  if (raw.length !== height * (stride + 1)) throw new Error("IDAT has the wrong length");
  const lines = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)] as number;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = lines.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? lines.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? (out[i - bpp] as number) : 0;
      const b = up ? (up[i] as number) : 0;
      const c = up && i >= bpp ? (up[i - bpp] as number) : 0;
      out[i] = ((line[i] as number) + predictor(type, a, b, c)) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const to = (y * width + x) * 3;
      if (colorType === 3) {
        const bit = x * (depth as number);
        const byte = lines[y * stride + (bit >> 3)] as number;
        const index =
          (byte >> (8 - (depth as number) - (bit & 7))) & ((1 << (depth as number)) - 1);
        if (!palette || index * 3 + 2 >= palette.length)
          throw new Error("palette index out of range");
        pixels.set(palette.subarray(index * 3, index * 3 + 3), to);
      } else {
        const from = y * stride + x * channels;
        if (channels === 1) pixels.fill(lines[from] as number, to, to + 3);
        else pixels.set(lines.subarray(from, from + 3), to);
      }
    }
  }
  return {
    width,
    height,
    colorType: colorType as number,
    pixels,
    hexAt(x, y) {
      const at = (y * width + x) * 3;
      return `#${[...pixels.subarray(at, at + 3)].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
    },
  };
}

function predictor(type: number, a: number, b: number, c: number): number {
  switch (type) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`unknown PNG filter ${type}`);
  }
}

function readChunks(bytes: Uint8Array): {
  header: Buffer;
  data: Buffer;
  palette: Buffer | null;
} {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG (signature)");
  let offset = 8;
  let header: Buffer | null = null;
  let palette: Buffer | null = null;
  const data: Buffer[] = [];
  let ended = false;
  while (offset + 12 <= file.length && !ended) {
    const length = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    const crc = file.readUInt32BE(offset + 8 + length);
    if (crc32(file.subarray(offset + 4, offset + 8 + length)) !== crc) {
      throw new Error(`chunk ${type}: bad CRC`);
    }
    if (type === "IHDR") header = body;
    else if (type === "PLTE") palette = body;
    else if (type === "IDAT") data.push(body);
    else if (type === "IEND") ended = true;
    offset += 12 + length;
  }
  if (header?.length !== 13) throw new Error("no IHDR chunk first");
  if (!ended) throw new Error("no IEND chunk: the file is cut short");
  return { header, data: Buffer.concat(data), palette };
}
