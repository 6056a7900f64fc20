/**
 * Whether a raster image file is whole: a download cut short (a server that
 * closes early without a Content-Length) has a valid header and a missing
 * end, which browsers draw as half a picture. Each format has an end it must
 * reach; only that end is read here, the header is read by `image-size`
 * (src/media/image-check.ts).
 */
export function isWholeImage(
  format: "jpg" | "png" | "gif" | "webp" | "avif",
  bytes: Buffer,
): boolean {
  switch (format) {
    case "png":
      return endsWith(bytes, PNG_IEND);
    case "jpg": {
      // The image's End Of Image marker after its last Start Of Scan (ITU T.81 B.2.1):
      // an embedded thumbnail (Exif, before the image) has markers of its own.
      const lastScan = bytes.lastIndexOf(JPEG_SOS);
      return lastScan !== -1 && bytes.lastIndexOf(JPEG_EOI) > lastScan;
    }
    case "gif":
      // The trailer byte 0x3B (GIF89a, section 27), padding aside.
      return trimZeros(bytes).at(-1) === 0x3b;
    case "webp":
      // RIFF: the size after the first 8 bytes is all there (RFC 9649 2.5).
      return bytes.length >= 12 && bytes.readUInt32LE(4) + 8 <= bytes.length;
    case "avif":
      return boxesFill(bytes);
  }
}

/** IEND, with its length (0) and CRC (PNG 11.2.5): the last chunk of every PNG. */
const PNG_IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const JPEG_SOS = Buffer.from([0xff, 0xda]);
const JPEG_EOI = Buffer.from([0xff, 0xd9]);

function endsWith(bytes: Buffer, end: Buffer): boolean {
  return bytes.length >= end.length && bytes.subarray(bytes.length - end.length).equals(end);
}

function trimZeros(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end);
}

/**
 * ISO BMFF (ISO/IEC 14496-12 4.2): top-level boxes follow each other to the
 * file's last byte, each as long as its header says, a media data box among them.
 */
function boxesFill(bytes: Buffer): boolean {
  let offset = 0;
  let media = false;
  while (offset < bytes.length) {
    if (offset + 8 > bytes.length) return false;
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    if (size === 1) {
      if (offset + 16 > bytes.length) return false;
      size = Number(bytes.readBigUInt64BE(offset + 8));
    } else if (size === 0) {
      size = bytes.length - offset;
    }
    if (size < 8 || offset + size > bytes.length) return false;
    if (type === "mdat") media = true;
    offset += size;
  }
  return media;
}
