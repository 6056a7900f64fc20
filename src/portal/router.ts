import type { ProblemSlug } from "./problem.ts";
import type { RouteName } from "./request-counters.ts";

export const API_PREFIX = "/v1";
/** Longer request targets are answered 414 (RFC 9110 section 15.5.15). */
const MAX_TARGET_LENGTH = 8192;

export type Route =
  | { name: "calendars" }
  | { name: "events"; calendarId: string }
  | { name: "details"; calendarId: string; eventId: string }
  | { name: "media"; file: string }
  | { name: "problems"; slug: string };

export type Target =
  | { ok: true; route: Route | null; path: string; query: string; params: URLSearchParams }
  | { ok: false; slug: ProblemSlug; detail: string };

/**
 * Splits a raw request target into a route and query. Segments are matched
 * after percent-decoding, so `%2F` inside an id stays inside that id (and is
 * then refused by the id rule) instead of becoming a path separator.
 */
export function parseTarget(rawTarget: string | undefined): Target {
  let target = rawTarget ?? "";
  if (target.length > MAX_TARGET_LENGTH) {
    return {
      ok: false,
      slug: "uri-too-long",
      detail: `The request target exceeds ${MAX_TARGET_LENGTH} characters.`,
    };
  }
  if (/^https?:\/\//i.test(target)) {
    // absolute-form (RFC 9112 section 3.2.2), as sent to proxies.
    const url = URL.canParse(target) ? new URL(target) : null;
    if (!url)
      return { ok: false, slug: "invalid-path", detail: "The request target is not a valid URL." };
    target = url.pathname + url.search;
  }
  if (!target.startsWith("/")) {
    return {
      ok: false,
      slug: "invalid-path",
      detail: "The request target must start with a slash.",
    };
  }
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = queryAt === -1 ? "" : target.slice(queryAt + 1);
  const segments: string[] = [];
  for (const raw of path.slice(1).split("/")) {
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return {
        ok: false,
        slug: "invalid-path",
        detail: "The path contains malformed percent-encoding.",
      };
    }
  }
  return { ok: true, route: matchRoute(segments), path, query, params: new URLSearchParams(query) };
}

function matchRoute(s: string[]): Route | null {
  const [first, second, third, fourth, fifth, sixth] = s;
  if (first === "media" && s.length === 2 && second) return { name: "media", file: second };
  if (first === "problems" && s.length === 2 && second) return { name: "problems", slug: second };
  if (first !== API_PREFIX.slice(1)) return null;
  if (s.length === 2 && second === "event-calendars") return { name: "calendars" };
  if (second !== "event-calendar" || third === undefined) return null;
  if (s.length === 4 && fourth === "events") return { name: "events", calendarId: third };
  if (s.length === 6 && fourth === "event" && fifth !== undefined && sixth === "details") {
    return { name: "details", calendarId: third, eventId: fifth };
  }
  return null;
}

export const routeName = (route: Route | null): RouteName => route?.name ?? "unknown";
