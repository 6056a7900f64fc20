import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout } from "node:timers/promises";
import { type AuthMode, challenge, readCredential } from "./auth.ts";
import type { ConcurrencyGate } from "./concurrency-gate.ts";
import { entityTag, httpDate, isNotModified } from "./conditional.ts";
import type { Dialect } from "./dialect.ts";
import type { FaultInjector, FaultKind } from "./fault-injector.ts";
import { isValidId } from "./ids.ts";
import { renderBanner } from "./media.ts";
import type { CachedBody, PageCache } from "./page-cache.ts";
import { PagingError, type PagingStyle, renderPage, selectPage } from "./paging.ts";
import { isProblemSlug, type ProblemSlug, problemPage, problemReply } from "./problem.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import type { RequestCounters } from "./request-counters.ts";
import { parseTarget, type Route, routeName, type Target } from "./router.ts";
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

/**
 * What the portal answers, made before it is sent: a response, or an
 * injected connection reset.
 */
type Reply =
  | {
      status: number;
      headers: Record<string, string>;
      /** Absent for a 304; send() leaves it out for HEAD, Content-Length still telling its size. */
      body?: Buffer;
      /** Injected fault: deliver half the body, then drop the connection. */
      truncated?: boolean;
    }
  | { reset: true };

/** Per-request state the steps share. */
interface Exchange {
  req: IncomingMessage;
  ctx: PortalContext;
  fault: FaultKind | null;
  headers: Record<string, string>;
}

/**
 * The whole request pipeline. Every failure path ends in a problem response;
 * an unexpected exception becomes a 500 problem without internals, and the
 * process keeps serving.
 *
 * Latency models a portal with a worker per request slot: the answer is made
 * when the request takes its slot and sent `latencyMs` after that, so the
 * work of requests in flight overlaps their waiting instead of queueing
 * behind it on this one thread (docs/api.md, "Test knobs").
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
    const due = ctx.latencyMs > 0 ? setTimeout(ctx.latencyMs) : null;
    const ex: Exchange = { req, ctx, fault: null, headers: {} };
    let reply: Reply;
    try {
      reply = answer(ex, target, route);
    } catch {
      reply = problem(ex, "internal-error", "The request could not be processed.");
    }
    await due;
    send(req, res, reply);
  };
}

function answer(ex: Exchange, target: Target, route: Route | null): Reply {
  if (!target.ok) return problem(ex, target.slug, target.detail);
  if (!route)
    return problem(ex, "not-found", "There is no resource at this path; see docs/api.md.");
  if (ex.req.method !== "GET" && ex.req.method !== "HEAD") {
    return problem(ex, "method-not-allowed", `Only ${ALLOW} are supported here.`, {
      Allow: ALLOW,
    });
  }
  if (route.name === "media") return serveMedia(ex, route.file);
  if (route.name === "problems") return serveProblemPage(ex, route.slug);
  return serveApi(ex, route, target.path, target.params);
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  // The client left while its answer waited; its slot was freed then.
  if (res.destroyed) return;
  // An RST, as from a crashing proxy; the client sees ECONNRESET.
  if ("reset" in reply) return void req.socket.resetAndDestroy();
  res.writeHead(reply.status, reply.headers);
  const body = req.method === "HEAD" ? undefined : reply.body;
  if (reply.truncated && body) {
    // Promise the whole body, deliver half, then drop the connection.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
    return;
  }
  res.end(body);
}

function serveApi(ex: Exchange, route: Route, path: string, params: URLSearchParams): Reply {
  const { ctx } = ex;
  ex.fault = ctx.faults?.next() ?? null;
  if (ex.fault) ctx.counters.fault(ex.fault);
  switch (ex.fault) {
    case "reset":
      return { reset: true };
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
  if (!("orgId" in orgId)) return orgId;
  const limited = rateLimited(ex, orgId.tokenId);
  if (limited) return limited;
  const { store } = ctx;
  if (route.name === "calendars") {
    const calendars = ctx.emptyLists ? [] : store.calendarsFor(orgId.orgId);
    const lastModified = Math.max(0, ...calendars.map((c) => c.updatedMs));
    return listReply(ex, calendars, `c:${orgId.orgId}`, path, params, lastModified, (c) =>
      ctx.dialect.calendar(calendarRecord(c)),
    );
  }
  if (route.name !== "events" && route.name !== "details") {
    return problem(ex, "not-found", "There is no resource at this path; see docs/api.md.");
  }
  if (!isValidId(route.calendarId)) return invalidId(ex, "eventCalendarId");
  if (route.name === "details" && !isValidId(route.eventId)) return invalidId(ex, "eventId");
  if (ctx.emptyLists && route.name === "events") {
    return listReply(ex, [], `e:${route.calendarId}`, path, params, 0, () => undefined);
  }
  const calendar = ctx.emptyLists ? undefined : store.calendarFor(orgId.orgId, route.calendarId);
  // Same answer for "does not exist" and "not yours", so ids of other
  // organizations' calendars cannot be probed.
  if (!calendar) return problem(ex, "not-found", "No such calendar is available to this token.");
  if (route.name === "events") {
    return listReply(
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
  return jsonReply(ex, ctx.dialect.details(detailsRecord(event, ctx.origin())), event.updatedMs);
}

/** The token's organization, or the 401 that answers instead. */
function authenticate(
  ex: Exchange,
  params: URLSearchParams,
): { orgId: string; tokenId: string } | Reply {
  const { ctx } = ex;
  const credential = readCredential(ex.req, params, ctx.auth);
  if (credential.kind === "missing") {
    return problem(ex, "unauthorized", "This API needs a token; see docs/api.md, Authentication.", {
      "WWW-Authenticate": challenge(ctx.auth),
    });
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
  return problem(
    ex,
    "unauthorized",
    `${description}; ask the organization administrator for a new one.`,
    { "WWW-Authenticate": challenge(ctx.auth, { description }) },
  );
}

/** The 429 that answers instead, or null within the token's rate. */
function rateLimited(ex: Exchange, key: string): Reply | null {
  const limiter = ex.ctx.rateLimiter;
  if (!limiter) return null;
  const decision = limiter.take(key);
  // draft-ietf-httpapi-ratelimit-headers (the widely implemented separate-header form).
  ex.headers["RateLimit-Limit"] = String(decision.limit);
  ex.headers["RateLimit-Remaining"] = String(decision.remaining);
  ex.headers["RateLimit-Reset"] = String(decision.resetSeconds);
  if (decision.allowed) return null;
  return problem(
    ex,
    "rate-limited",
    `More than ${decision.limit} requests per second for this token.`,
    { "Retry-After": String(decision.retryAfterSeconds) },
  );
}

function listReply<T extends { key: readonly [number | string, string] }>(
  ex: Exchange,
  list: readonly T[],
  tag: string,
  path: string,
  params: URLSearchParams,
  lastModifiedMs: number,
  toRecord: (item: T) => unknown,
): Reply {
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
    return problem(ex, "invalid-parameter", error.message);
  }
  Object.assign(ex.headers, cached.headers);
  return bodyReply(ex, cached.body, cached.etag, lastModifiedMs);
}

function jsonReply(ex: Exchange, value: unknown, lastModifiedMs: number): Reply {
  const body = Buffer.from(JSON.stringify(value));
  return bodyReply(ex, body, entityTag(body), lastModifiedMs);
}

function bodyReply(ex: Exchange, body: Buffer, etag: string, lastModifiedMs: number): Reply {
  const validators: Record<string, string> = { ETag: etag };
  if (lastModifiedMs > 0) validators["Last-Modified"] = httpDate(lastModifiedMs);
  const common = {
    ...ex.headers,
    ...validators,
    // The body depends on the token: private; revalidate every time.
    "Cache-Control": "private, no-cache",
  };
  if (isNotModified(ex.req.headers, etag, lastModifiedMs)) return { status: 304, headers: common };
  const headers = {
    ...common,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(body.length),
    "X-Content-Type-Options": "nosniff",
  };
  return { status: 200, headers, body, truncated: ex.fault === "truncated" };
}

function serveMedia(ex: Exchange, file: string): Reply {
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
  if (isNotModified(ex.req.headers, etag, 0)) return { status: 304, headers };
  return {
    status: 200,
    headers: { ...headers, "Content-Type": "image/svg+xml", "Content-Length": String(body.length) },
    body,
  };
}

function serveProblemPage(ex: Exchange, slug: string): Reply {
  if (!isProblemSlug(slug)) return problem(ex, "not-found", "No such problem type.");
  const body = Buffer.from(problemPage(slug));
  return {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": String(body.length),
      "Cache-Control": "public, max-age=86400",
    },
    body,
  };
}

function invalidId(ex: Exchange, name: string): Reply {
  return problem(
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
): Reply {
  return problemReply(ex.ctx.origin(), slug, detail, { ...ex.headers, ...headers });
}
