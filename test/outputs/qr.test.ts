import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { renderQrSvg } from "../../src/outputs/qr.ts";

describe("qr", () => {
  it("should render an accessible inline SVG with an escaped label", () => {
    const svg = renderQrSvg(
      "webcal://events.example.org/calendar.ics",
      'Subscribe to "Events" & <more>',
    );
    expect(svg).toMatch(
      /^<svg role="img" aria-label="Subscribe to &quot;Events&quot; &amp; &lt;more&gt;" /,
    );
    expect(svg).toContain("<title>Subscribe to &quot;Events&quot; &amp; &lt;more&gt;</title>");
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg.endsWith("</svg>")).toBe(true);
  });

  it("should encode the text: the module grid matches qrcode's own encoding", () => {
    const text = "webcal://events.example.org/calendars/culture/calendar.ics";
    const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
    const svg = renderQrSvg(text);
    // viewBox = modules plus a 2-module quiet zone on each side.
    expect(svg).toContain(`viewBox="0 0 ${modules.size + 4} ${modules.size + 4}"`);
    // Count dark modules drawn by the path's horizontal runs.
    const path = svg.match(/<path stroke="#000000" d="([^"]+)"/)?.[1] ?? "";
    const drawn = [...path.matchAll(/h(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    const dark = Array.from(modules.data).filter(Boolean).length;
    expect(drawn).toBe(dark);
  });

  it("should be deterministic and differ for different text", () => {
    expect(renderQrSvg("https://a.example/x.ics")).toBe(renderQrSvg("https://a.example/x.ics"));
    expect(renderQrSvg("https://a.example/x.ics")).not.toBe(renderQrSvg("https://a.example/y.ics"));
  });

  it("should keep a $ in the label literal", () => {
    expect(renderQrSvg("x", "Price $& $1")).toContain('aria-label="Price $&amp; $1"');
  });
});
