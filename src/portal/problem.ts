/**
 * RFC 9457 problem details. Each type URI is on the portal's own origin under
 * /problems/<slug> and dereferences to a short human-readable page (RFC 9457
 * section 3.1.1); clients should branch on `status` and the slug.
 */
const PROBLEMS = {
  "invalid-parameter": { status: 400, title: "Invalid query parameter" },
  "invalid-id": { status: 400, title: "Invalid identifier" },
  "invalid-path": { status: 400, title: "Invalid request path" },
  "bad-request": { status: 400, title: "Malformed request" },
  unauthorized: { status: 401, title: "Authentication required" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  "uri-too-long": { status: 414, title: "Request target too long" },
  "rate-limited": { status: 429, title: "Too many requests" },
  "headers-too-large": { status: 431, title: "Request header fields too large" },
  "internal-error": { status: 500, title: "Internal server error" },
  "service-unavailable": { status: 503, title: "Service temporarily unavailable" },
} as const;

export type ProblemSlug = keyof typeof PROBLEMS;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
}

function problemBody(origin: string, slug: ProblemSlug, detail: string): Problem {
  const { status, title } = PROBLEMS[slug];
  return { type: `${origin}/problems/${slug}`, title, status, detail };
}

/** A problem response: its status, headers and body. */
export function problemReply(
  origin: string,
  slug: ProblemSlug,
  detail: string,
  headers: Record<string, string> = {},
): { status: number; headers: Record<string, string>; body: Buffer } {
  const problem = problemBody(origin, slug, detail);
  const body = Buffer.from(JSON.stringify(problem));
  return {
    status: problem.status,
    headers: {
      "Content-Type": "application/problem+json; charset=utf-8",
      "Content-Length": String(body.length),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...headers,
    },
    body,
  };
}

/** The raw HTTP/1.1 text of a problem, for parser errors answered on the socket. */
export function rawProblemResponse(origin: string, slug: ProblemSlug, detail: string): string {
  const problem = problemBody(origin, slug, detail);
  const body = JSON.stringify(problem);
  return [
    `HTTP/1.1 ${problem.status} ${problem.title}`,
    "Content-Type: application/problem+json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** Minimal HTML page a problem type URI dereferences to. */
export function problemPage(slug: ProblemSlug): string {
  const { status, title } = PROBLEMS[slug];
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><h1>${status} ${title}</h1><p>See docs/api.md, section Errors.</p></html>`;
}

export const isProblemSlug = (value: string): value is ProblemSlug =>
  Object.hasOwn(PROBLEMS, value);
