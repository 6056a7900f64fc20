import QRCode from "qrcode";

/**
 * A QR code as an inline SVG string, rendered at build time (no script, no
 * request on the page). It is an image with a text alternative (role="img",
 * aria-label and <title>), so screen readers announce what it links to.
 */
export function renderQrSvg(text: string, label: string = text): string {
  let svg: string | undefined;
  let failure: unknown;
  // With a callback, qrcode renders synchronously (qrcode/lib/server.js
  // `render`); the guard below keeps that assumption honest.
  QRCode.toString(
    text,
    {
      type: "svg",
      errorCorrectionLevel: "M",
      margin: 2,
      color: { dark: "#000000", light: "#ffffff" },
    },
    (error, result) => {
      failure = error;
      svg = result;
    },
  );
  if (failure) throw failure;
  if (svg === undefined) throw new Error("qrcode did not render synchronously");
  const accessibleLabel = escapeXml(label);
  return svg
    .trim()
    .replace("<svg ", () => `<svg role="img" aria-label="${accessibleLabel}" `)
    .replace(/<svg[^>]*>/, (open) => `${open}<title>${accessibleLabel}</title>`);
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
