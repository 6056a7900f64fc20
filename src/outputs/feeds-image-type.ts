/**
 * The media type of an event image, from its URL alone (the build never
 * fetches images). The `feed` package derives "image/<extension>" from the
 * path, which gives "image/jpg" (not a registered type) and nonsense such as
 * "image//photo" for CDN URLs without an extension; we decide here instead and
 * return null when the URL does not tell, so writers can leave the type out
 * rather than state a wrong one.
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jpe: "image/jpeg",
  jfif: "image/jpeg",
  png: "image/png",
  apng: "image/apng",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  bmp: "image/bmp",
  ico: "image/vnd.microsoft.icon",
};

/** Query parameters image CDNs use to select the output format. */
const FORMAT_PARAMS = ["format", "fm", "f", "ext"] as const;

export function imageMediaType(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  for (const param of FORMAT_PARAMS) {
    const value = parsed.searchParams.get(param)?.toLowerCase();
    if (value && BY_EXTENSION[value]) return BY_EXTENSION[value];
  }
  const lastSegment = parsed.pathname.split("/").pop() ?? "";
  const dot = lastSegment.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION[lastSegment.slice(dot + 1).toLowerCase()] ?? null;
}

/** An http(s) URL in its serialized (percent-encoded) form, or null. */
export function normalizeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}
