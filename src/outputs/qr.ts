import QRCode from "qrcode";
import { count } from "../metrics.ts";
import { escapeHtml } from "../model/sanitize.ts";

/**
 * A QR code as an inline SVG string, rendered at build time (no script, no
 * request on the page). It is an image with a text alternative (role="img",
 * aria-label and <title>), so screen readers announce what it links to.
 */
export function renderQrSvg(text: string, label: string = text): string {
  // Pages render the same few subscribe panels many times per build.
  const key = `${text}\n${label}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const svg = renderUncached(text, label);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, svg);
  return svg;
}

const CACHE_LIMIT = 1000;
const cache = new Map<string, string>();

function renderUncached(text: string, label: string): string {
  count("qr.drawn");
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
  const accessibleLabel = escapeHtml(label);
  return svg
    .trim()
    .replace("<svg ", () => `<svg role="img" aria-label="${accessibleLabel}" `)
    .replace(/<svg[^>]*>/, (open) => `${open}<title>${accessibleLabel}</title>`);
}
