/**
 * The oEmbed endpoint (https://oembed.com, sections 2.2-2.4), as one pure
 * function that every host runs the same way: the Netlify Function
 * (netlify/functions/oembed.mts), the Cloudflare Pages Function
 * (functions/oembed.ts), `npm run preview` and `npm start`
 * (src/oembed/serve-folder.ts).
 *
 * It answers from the build's static answers (`/oembed/{calendar}.json`,
 * written by src/widget/snippets.ts), which each host reads its own way, so
 * the endpoint never disagrees with the deploy it is part of and needs no
 * settings: the answer's `provider_url` says which site it belongs to.
 * Web-standard code only (no Node modules): it runs in a Worker too.
 *
 *   GET {site}/oembed?url={calendar page}&maxwidth=&maxheight=&format=json
 *
 * - `url`: a calendar page of this site (`{site}/calendars/{calendar}/`),
 *   or of one of its languages' sites (`{site}/fr/calendars/{calendar}/`,
 *   SITE_LANGUAGES: answered from that language's answers, in its
 *   language), http or https; anything else, or none, is 404 (section
 *   2.3.5: the provider has no response for the URL).
 * - `format`: `json` or absent; anything else (`xml`) is 501 Not Implemented.
 * - `maxwidth`, `maxheight`: whole numbers of pixels; the answer's `width`
 *   and `height`, and the iframe's own attributes, never exceed them.
 *   Missing or invalid values are ignored, as the spec leaves them optional.
 */

export interface OembedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * The text of the static answer for a calendar's path segment in a
 * language's folder ("" for the site's root, "/fr" for its French site), or
 * null when there is none; throws when it cannot tell (the endpoint then
 * answers 502).
 */
export type StaticAnswerReader = (
  calendarSegment: string,
  languageFolder: string,
) => Promise<string | null>;

/**
 * What the CDN sends with the static answers (netlify.toml's rules for
 * `/oembed/*.json`; a test holds the two together): a function's response
 * gets no headers from netlify.toml or `_headers`, so it carries its own.
 */
export const OEMBED_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": "public, max-age=30, stale-while-revalidate=30",
  "X-Content-Type-Options": "nosniff",
};

/** A calendar page's path: `{folder}/calendars/{segment}/`, optionally with `index.html`. */
const CALENDAR_PAGE = /^(.*)\/calendars\/([a-z0-9_-]{1,80})\/(?:index\.html)?$/;

/** Path segments are what src/model/url-scheme.ts writes; nothing else is looked up. */
export const CALENDAR_SEGMENT = /^[a-z0-9_-]{1,80}$/;

/**
 * The folder of a language's site under the site's own ("/fr", "/pt-br": a
 * tag lower-cased, src/config/site-languages.ts), or "" for the site's root
 * language: the only folders the answers are looked for in.
 */
export const LANGUAGE_FOLDER = /^(?:\/[a-z]{2,3}(?:-[a-z0-9]{1,8}){0,3})?$/;

interface StaticAnswer {
  readonly provider_url: string;
  readonly html: string;
  readonly width: number;
  readonly height: number;
  readonly [field: string]: unknown;
}

/**
 * A host function's whole answer (Netlify's, Cloudflare's), with the static
 * answers fetched through `fetchAnswer` by their site path. The path is
 * paths.oembedOfSegment's (src/model/url-scheme.ts, which a Worker cannot
 * import; test/oembed/hosts.test.ts holds the two together).
 */
export async function oembedResponse(
  request: Request,
  fetchAnswer: (path: string) => Promise<Response>,
): Promise<Response> {
  const reply = await answerOembed(request.method, request.url, async (segment, folder) => {
    const response = await fetchAnswer(staticAnswerPath(segment, folder));
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`The static answer answered ${response.status}`);
    return response.text();
  });
  return new Response(request.method === "HEAD" ? null : reply.body, {
    status: reply.status,
    headers: reply.headers,
  });
}

/** Where a calendar's static answer is published, at the root or in a language's folder. */
export function staticAnswerPath(calendarSegment: string, languageFolder = ""): string {
  return `${languageFolder}/oembed/${calendarSegment}.json`;
}

export async function answerOembed(
  method: string,
  requestUrl: string,
  readAnswer: StaticAnswerReader,
): Promise<OembedReply> {
  if (method !== "GET" && method !== "HEAD") {
    return plain(405, "Only GET is supported.", { Allow: "GET, HEAD" });
  }
  const query = new URL(requestUrl).searchParams;
  const format = query.get("format");
  if (format !== null && format.toLowerCase() !== "json") {
    return plain(501, "Only format=json is implemented.");
  }
  // The endpoint answers at `{site}/oembed`: what is before it is the site's folder.
  const site = new URL(requestUrl).pathname.replace(/\/oembed\/?$/, "");
  const page = calendarPage(query.get("url"), site);
  if (!page) return plain(404, "No calendar page of this site at that url.");
  let text: string | null;
  try {
    text = await readAnswer(page.segment, page.language);
  } catch {
    return plain(502, "The site's answer could not be read; try again later.");
  }
  const answer = text === null ? null : parseAnswer(text);
  if (!answer || !sameSite(page.url, answer.provider_url, page.folder)) {
    return plain(404, "No calendar page of this site at that url.");
  }
  const width = bounded(answer.width, query.get("maxwidth"));
  const height = bounded(answer.height, query.get("maxheight"));
  // Unbounded, the answer is the static file itself, byte for byte.
  const body =
    width === answer.width && height === answer.height
      ? (text as string)
      : `${JSON.stringify({ ...answer, html: sizeIframe(answer.html, width, height), width, height }, null, 2)}\n`;
  return {
    status: 200,
    headers: { ...OEMBED_RESPONSE_HEADERS, "Content-Type": "application/json" },
    body,
  };
}

/**
 * The calendar a consumer's `url` names, if it is one of our calendar pages:
 * in the site's folder `site`, at its root or in a language's folder.
 */
function calendarPage(
  raw: string | null,
  site: string,
): {
  readonly url: URL;
  readonly folder: string;
  readonly language: string;
  readonly segment: string;
} | null {
  if (!raw || raw.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const match = CALENDAR_PAGE.exec(url.pathname);
  const folder = match?.[1] ?? "";
  const language = folder.startsWith(site) ? folder.slice(site.length) : null;
  if (!match || language === null || !LANGUAGE_FOLDER.test(language)) return null;
  return { url, folder, language, segment: match[2] ?? "" };
}

function parseAnswer(text: string): StaticAnswer | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return null;
    const answer = value as Partial<StaticAnswer>;
    return typeof answer.provider_url === "string" &&
      typeof answer.html === "string" &&
      typeof answer.width === "number" &&
      typeof answer.height === "number"
      ? (answer as StaticAnswer)
      : null;
  } catch {
    return null;
  }
}

/**
 * The page is on the site the answer belongs to: the same host and folder.
 * Either scheme is accepted, as a pasted address may be http or https.
 */
function sameSite(page: URL, providerUrl: string, folder: string): boolean {
  try {
    const site = new URL(providerUrl);
    return page.host === site.host && `${folder}/` === site.pathname;
  } catch {
    return false;
  }
}

/** A size within the consumer's maximum; a maximum that is not a whole number of pixels is ignored. */
function bounded(size: number, max: string | null): number {
  if (max === null || !/^[0-9]{1,6}$/.test(max.trim())) return size;
  const limit = Number(max.trim());
  return limit >= 1 ? Math.min(size, limit) : size;
}

/**
 * The iframe's width and height attributes set to the answer's. The html is
 * the build's own (src/widget/snippets.ts `oembedHtml`), whose attribute
 * values are escaped, so ` width="` occurs only as the attribute itself.
 */
export function sizeIframe(html: string, width: number, height: number): string {
  return html.replace(/<iframe\b[^>]*>/, (tag) =>
    tag
      .replace(/ width="[0-9]+"/, ` width="${width}"`)
      .replace(/ height="[0-9]+"/, ` height="${height}"`),
  );
}

function plain(
  status: number,
  message: string,
  extra: Readonly<Record<string, string>> = {},
): OembedReply {
  return {
    status,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
      "Content-Type": "text/plain; charset=utf-8",
      ...extra,
    },
    body: `${message}\n`,
  };
}
