import type { IncomingMessage, ServerResponse } from "node:http";
import { type AuthMode, challenge, readCredential } from "./auth.ts";
import type { ConcurrencyGate } from "./concurrency-gate.ts";
import { entityTag, httpDate, isNotModified } from "./conditional.ts";
import type { Dialect } from "./dialect.ts";
import type { FaultInjector, FaultKind } from "./fault-injector.ts";
import { isValidId } from "./ids.ts";
import { renderBanner } from "./media.ts";
import type { CachedBody, PageCache } from "./page-cache.ts";
import { PagingError, type PagingStyle, renderPage, selectPage } from "./paging.ts";
import { isProblemSlug, type ProblemSlug, problemPage, sendProblem } from "./problem.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import type { RequestCounters } from "./request-counters.ts";
import { parseTarget, type Route, routeName } from "./router.ts";
import { calendarRecord, detailsRecord, eventRecord, type PortalStore } from "./store.ts";
import type { TokenStore } from "./token-store.ts";

export interface PortalContext {
  store: PortalStore;
  tokens: TokenStore;
  auth: AuthMode;
  paging: PagingStyle;
  dialect: Dialect;
  pageSizeMax: number;
  /** Every list answers 200 [] (docs/api.md, "Test knobs"). */
  emptyLists: boolean;
  counters: RequestCounters;
  media: Map<string, string>;
  latencyMs: number;
  gate: ConcurrencyGate | null;
  faults: FaultInjector | null;
  rateLimiter: RateLimiter | null;
  pageCache: PageCache;
  origin: () => string;
}

const ALLOW = "GET, HEAD";

/** Per-request state the steps share. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: PortalContext;
  head: boolean;
  fault: FaultKind | null;
  headers: Record<string, string>;
}

/**
 * The whole request pipeline. Every failure path ends in a problem response;
 * an unexpected exception becomes a 500 problem without internals, and the
 * process keeps serving.
 */
export function createRequestHandler(ctx: PortalContext) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = parseTarget(req.url);
    const route = target.ok ? target.route : null;
    let counted = false;
    res.once("close", () => {
      if (counted) return;
      counted = true;
      ctx.counters.record(routeName(route), res.headersSent ? res.statusCode : 0);
    });
    const release = ctx.gate ? await ctx.gate.enter() : null;
    if (release) res.once("close", release);
    if (ctx.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, ctx.latencyMs));
    const ex: Exchange = { req, res, ctx, head: req.method === "HEAD", fault: null, headers: {} };
    try {
      if (!target.ok) return problem(ex, target.slug, target.detail);
      if (!route)
        return problem(ex, "not-found", "There is no resource at this path; see docs/api.md.");
      if (req.method !== "GET" && req.method !== "HEAD") {
        return problem(ex, "method-not-allowed", `Only ${ALLOW} are supported here.`, {
          Allow: ALLOW,
        });
      }
      if (route.name === "media") return serveMedia(ex, route.file);
      if (route.name === "problems") return serveProblemPage(ex, route.slug);
      await serveApi(ex, route, target.path, target.params);
    } catch {
      if (!res.headersSent) problem(ex, "internal-error", "The request could not be processed.");
      else res.destroy();
    }
  };
}

async function serveApi(ex: Exchange, route: Route, path: string, params: URLSearchParams) {
  const { ctx, req } = ex;
  ex.fault = ctx.faults?.next() ?? null;
  if (ex.fault) ctx.counters.fault(ex.fault);
  switch (ex.fault) {
    case "reset":
      // An RST, as from a crashing proxy; the client sees ECONNRESET.
      req.socket.resetAndDestroy();
      return;
    case "503":
      return problem(ex, "service-unavailable", "The portal is briefly unavailable; retry later.", {
        "Retry-After": "1",
      });
    case "500":
      return problem(ex, "internal-error", "The request could not be processed.");
    case "429":
      return problem(ex, "rate-limited", "Too many requests; retry later.", { "Retry-After": "1" });
  }
  if (ctx.auth.kind === "bearer" || ctx.auth.kind === "scheme") ex.headers.Vary = "Authorization";
  if (ctx.auth.kind === "header") ex.headers.Vary = ctx.auth.name;
  const orgId = authenticate(ex, params);
  if (orgId === null) return;
  if (!withinRateLimit(ex, orgId.tokenId)) return;
  const { store } = ctx;
  if (route.name === "calendars") {
    const calendars = ctx.emptyLists ? [] : store.calendarsFor(orgId.orgId);
    const lastModified = Math.max(0, ...calendars.map((c) => c.updatedMs));
    return sendList(ex, calendars, `c:${orgId.orgId}`, path, params, lastModified, (c) =>
      ctx.dialect.calendar(calendarRecord(c)),
    );
  }
  if (route.name !== "events" && route.name !== "details") return;
  if (!isValidId(route.calendarId)) return invalidId(ex, "eventCalendarId");
  if (route.name === "details" && !isValidId(route.eventId)) return invalidId(ex, "eventId");
  if (ctx.emptyLists && route.name === "events") {
    return sendList(ex, [], `e:${route.calendarId}`, path, params, 0, () => undefined);
  }
  const calendar = ctx.emptyLists ? undefined : store.calendarFor(orgId.orgId, route.calendarId);
  // Same answer for "does not exist" and "not yours", so ids of other
  // organizations' calendars cannot be probed.
  if (!calendar) return problem(ex, "not-found", "No such calendar is available to this token.");
  if (route.name === "events") {
    return sendList(
      ex,
      calendar.events,
      `e:${calendar.calendar.id}`,
      path,
      params,
      calendar.updatedMs,
      (e) => ctx.dialect.event(eventRecord(e)),
    );
  }
  const event = calendar.byId.get(route.eventId);
  if (!event) return problem(ex, "not-found", "No such event in this calendar.");
  sendJson(ex, ctx.dialect.details(detailsRecord(event, ctx.origin())), event.updatedMs);
}

function authenticate(
  ex: Exchange,
  params: URLSearchParams,
): { orgId: string; tokenId: string } | null {
  const { ctx } = ex;
  const credential = readCredential(ex.req, params, ctx.auth);
  if (credential.kind === "missing") {
    problem(ex, "unauthorized", "This API needs a token; see docs/api.md, Authentication.", {
      "WWW-Authenticate": challenge(ctx.auth),
    });
    return null;
  }
  const verdict =
    credential.kind === "token"
      ? ctx.tokens.verify(credential.token)
      : { status: "malformed" as const };
  if (verdict.status === "valid") return { orgId: verdict.orgId, tokenId: verdict.id };
  const description = {
    malformed: "The token is malformed",
    unknown: "The token is not valid",
    revoked: "The token has been revoked",
  }[verdict.status];
  problem(ex, "unauthorized", `${description}; ask the organization administrator for a new one.`, {
    "WWW-Authenticate": challenge(ctx.auth, { description }),
  });
  return null;
}

function withinRateLimit(ex: Exchange, key: string): boolean {
  const limiter = ex.ctx.rateLimiter;
  if (!limiter) return true;
  const decision = limiter.take(key);
  // draft-ietf-httpapi-ratelimit-headers (the widely implemented separate-header form).
  ex.headers["RateLimit-Limit"] = String(decision.limit);
  ex.headers["RateLimit-Remaining"] = String(decision.remaining);
  ex.headers["RateLimit-Reset"] = String(decision.resetSeconds);
  if (decision.allowed) return true;
  problem(ex, "rate-limited", `More than ${decision.limit} requests per second for this token.`, {
    "Retry-After": String(decision.retryAfterSeconds),
  });
  return false;
}

function sendList<T extends { key: readonly [number | string, string] }>(
  ex: Exchange,
  list: readonly T[],
  tag: string,
  path: string,
  params: URLSearchParams,
  lastModifiedMs: number,
  toRecord: (item: T) => unknown,
): void {
  const { ctx } = ex;
  const self = new URL(path, ctx.origin());
  for (const [name, value] of params) {
    // The token never travels in a link the portal builds (docs/api.md).
    if (!(ctx.auth.kind === "query" && name === ctx.auth.name))
      self.searchParams.append(name, value);
  }
  self.searchParams.sort();
  let cached: CachedBody;
  try {
    cached = ctx.pageCache.get(`${ctx.store.version}\n${tag}\n${self.search}`, () => {
      const page = selectPage(list, {
        style: ctx.paging,
        params,
        tag,
        selfUrl: self,
        pageSizeMax: ctx.pageSizeMax,
      });
      const rendered = renderPage(ctx.paging, page, page.items.map(toRecord));
      return { value: rendered.body, headers: rendered.headers };
    });
  } catch (error) {
    if (!(error instanceof PagingError)) throw error;
    problem(ex, "invalid-parameter", error.message);
    return;
  }
  Object.assign(ex.headers, cached.headers);
  sendBody(ex, cached.body, cached.etag, lastModifiedMs);
}

function sendJson(ex: Exchange, value: unknown, lastModifiedMs: number) {
  const body = Buffer.from(JSON.stringify(value));
  sendBody(ex, body, entityTag(body), lastModifiedMs);
}

function sendBody(ex: Exchange, body: Buffer, etag: string, lastModifiedMs: number) {
  const validators: Record<string, string> = { ETag: etag };
  if (lastModifiedMs > 0) validators["Last-Modified"] = httpDate(lastModifiedMs);
  const common = {
    ...ex.headers,
    ...validators,
    // The body depends on the token: private; revalidate every time.
    "Cache-Control": "private, no-cache",
  };
  if (isNotModified(ex.req.headers, etag, lastModifiedMs)) {
    ex.res.writeHead(304, common);
    ex.res.end();
    return;
  }
  ex.res.writeHead(200, {
    ...common,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(body.length),
    "X-Content-Type-Options": "nosniff",
  });
  if (ex.head) return void ex.res.end();
  if (ex.fault === "truncated") {
    // Promise the whole body, deliver half, then drop the connection.
    ex.res.write(body.subarray(0, Math.floor(body.length / 2)), () => ex.req.socket.destroy());
    return;
  }
  ex.res.end(body);
}

function serveMedia(ex: Exchange, file: string) {
  const name = file.endsWith(".svg") ? file.slice(0, -4) : "";
  const caption = ex.ctx.media.get(name);
  if (caption === undefined) return problem(ex, "not-found", "No such media file.");
  const body = Buffer.from(renderBanner(name, caption));
  const etag = entityTag(body);
  const headers = {
    ETag: etag,
    "Cache-Control": "public, max-age=86400",
    // SVG can carry scripts; this one has none, and the policy makes sure of it.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "X-Content-Type-Options": "nosniff",
  };
  if (isNotModified(ex.req.headers, etag, 0)) {
    ex.res.writeHead(304, headers);
    return void ex.res.end();
  }
  ex.res.writeHead(200, {
    ...headers,
    "Content-Type": "image/svg+xml",
    "Content-Length": String(body.length),
  });
  ex.res.end(ex.head ? undefined : body);
}

function serveProblemPage(ex: Exchange, slug: string) {
  if (!isProblemSlug(slug)) return problem(ex, "not-found", "No such problem type.");
  const body = Buffer.from(problemPage(slug));
  ex.res.writeHead(200, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": String(body.length),
    "Cache-Control": "public, max-age=86400",
  });
  ex.res.end(ex.head ? undefined : body);
}

function invalidId(ex: Exchange, name: string): void {
  problem(
    ex,
    "invalid-id",
    `${name} must be 1-128 characters from A-Z a-z 0-9 . _ ~ - (not only dots).`,
  );
}

function problem(
  ex: Exchange,
  slug: ProblemSlug,
  detail: string,
  headers: Record<string, string> = {},
) {
  sendProblem(ex.res, ex.ctx.origin(), slug, detail, { ...ex.headers, ...headers }, ex.head);
}
