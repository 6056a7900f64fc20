import { Renderer } from "@takumi-rs/core";
import { beforeAll, describe, expect, it } from "vitest";
import { checkImage } from "../../src/media/image-check.ts";
import { ImageRefused } from "../../src/media/image-refused.ts";
import { svgAsUtf8 } from "../../src/media/svg-text.ts";

/** A 1 x 1 GIF89a, as the format writes it (header, palette, image, trailer). */
const GIF = Buffer.from(
  "474946383961010001008000000000000000ffffff2c00000000010001000002024401003b",
  "hex",
);
const MAX = 40_000_000;

let files: Record<"png" | "jpeg" | "webp", Buffer>;

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ImageRefused) return error.message;
    throw error;
  }
  return "accepted";
}

describe("image-check", () => {
  beforeAll(async () => {
    const renderer = new Renderer();
    const draw = (format: "png" | "jpeg" | "webp") =>
      renderer.render(
        { type: "container", style: { width: 64, height: 48, backgroundColor: "#0b7285" } },
        { width: 64, height: 48, format },
      );
    files = { png: await draw("png"), jpeg: await draw("jpeg"), webp: await draw("webp") };
  });

  it("should accept a whole image of the type it declares, with its size from its header", () => {
    expect(checkImage(files.png, "image/png", MAX)).toMatchObject({
      format: "png",
      width: 64,
      height: 48,
    });
    expect(checkImage(files.jpeg, "image/jpeg", MAX)).toMatchObject({
      format: "jpg",
      width: 64,
      height: 48,
    });
    expect(checkImage(files.webp, "image/webp", MAX)).toMatchObject({
      format: "webp",
      width: 64,
      height: 48,
    });
    expect(checkImage(GIF, "image/gif", MAX)).toMatchObject({ format: "gif", width: 1, height: 1 });
  });

  it("should refuse a file of another kind than declared, or of no known kind", () => {
    expect(refusal(() => checkImage(files.jpeg, "image/png", MAX))).toBe(
      "declared image/png, but the file is a JPEG",
    );
    expect(refusal(() => checkImage(Buffer.from("<!doctype html><p>hi"), "image/png", MAX))).toBe(
      "declared image/png, but the file is not an image of a known kind",
    );
    expect(refusal(() => checkImage(Buffer.alloc(11, 0x89), "image/png", MAX))).toMatch(
      /not an image of a known kind/,
    );
    expect(refusal(() => checkImage(files.png, "application/octet-stream", MAX))).toBe(
      'unsupported content type "application/octet-stream"',
    );
  });

  it("should refuse a file cut short, whatever its format", () => {
    const cut = (bytes: Buffer, keep: number) => bytes.subarray(0, keep);
    expect(refusal(() => checkImage(cut(files.png, files.png.length - 12), "image/png", MAX))).toBe(
      "a cut-short PNG file",
    );
    expect(
      refusal(() => checkImage(cut(files.jpeg, files.jpeg.length - 2), "image/jpeg", MAX)),
    ).toBe("a cut-short JPEG file");
    expect(
      refusal(() => checkImage(cut(files.webp, files.webp.length - 4), "image/webp", MAX)),
    ).toBe("a cut-short WebP file");
    expect(refusal(() => checkImage(cut(GIF, GIF.length - 1), "image/gif", MAX))).toBe(
      "a cut-short GIF file",
    );
  });

  it("should refuse a picture of more pixels than allowed, from its header alone", () => {
    expect(refusal(() => checkImage(files.png, "image/png", 64 * 48 - 1))).toBe(
      "64 x 48 pixels, over the 0.003071 million allowed",
    );
  });

  it("should read an SVG by its real encoding: byte order mark, else the declaration, else UTF-8", () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"><text>Café</text></svg>';
    const utf8 = Buffer.from(svg, "utf8");
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(svg, "utf16le")]);
    const be = Buffer.from(le.subarray(2)).swap16();
    const latin1 = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n', "latin1"),
      Buffer.from(svg, "latin1"),
    ]);
    for (const bytes of [utf8, le, Buffer.concat([Buffer.from([0xfe, 0xff]), be]), latin1]) {
      expect(svgAsUtf8(bytes).toString("utf8").trim()).toBe(svg);
    }
    expect(checkImage(le, "image/svg+xml", MAX)).toMatchObject({
      format: "svg",
      width: 2,
      height: 1,
    });
    expect(
      refusal(() => svgAsUtf8(Buffer.from('<?xml version="1.0" encoding="x-no-such"?><svg/>'))),
    ).toBe("an SVG in an unknown encoding");
    expect(refusal(() => svgAsUtf8(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0x3e])))).toBe(
      "an SVG in invalid utf-8",
    );
  });
});
