import { seedFrom } from "./prng.ts";
import type { PortalDataset } from "./types.ts";

const MEDIA_NAME = /^\/media\/([A-Za-z0-9._-]{1,100})\.svg$/;

const PALETTE = [
  ["#0b7285", "#66d9e8"],
  ["#862e9c", "#e599f7"],
  ["#2b8a3e", "#8ce99a"],
  ["#c92a2a", "#ffa8a8"],
  ["#e67700", "#ffd43b"],
  ["#1864ab", "#74c0fc"],
] as const;

const escapeXml = (text: string): string =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  );

/** A 1200x630 banner (the size social cards use) showing the image's alt text. */
export function renderBanner(name: string, caption: string): string {
  const [dark, light] = PALETTE[seedFrom(name) % PALETTE.length] ?? PALETTE[0];
  const text = escapeXml(caption.length > 60 ? `${caption.slice(0, 57)}...` : caption);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="${text}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${light}"/></linearGradient></defs>
<rect width="1200" height="630" fill="url(#g)"/>
<circle cx="1020" cy="140" r="220" fill="#ffffff" fill-opacity="0.12"/>
<circle cx="160" cy="560" r="260" fill="#000000" fill-opacity="0.08"/>
<text x="80" y="540" font-family="system-ui, sans-serif" font-size="44" fill="#ffffff">${text}</text>
</svg>
`;
}

/** Every /media/<name>.svg the dataset references, with the caption to draw. */
export function mediaLibrary(dataset: PortalDataset): Map<string, string> {
  const library = new Map<string, string>();
  for (const event of dataset.events) {
    const match = event.image ? MEDIA_NAME.exec(event.image.url) : null;
    if (match?.[1] && !library.has(match[1])) library.set(match[1], event.image?.alt ?? match[1]);
  }
  return library;
}
