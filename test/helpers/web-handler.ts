import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/*
 * A web-standard handler (`(Request) => Response`, as Netlify Functions and
 * Fedify's `federation.fetch` are written) behind a Node HTTP server on
 * loopback, as a host runs one: the request as it came, at the server's own
 * origin, and the answer as it is.
 */

export type WebHandler = (request: Request) => Promise<Response> | Response;

export function nodeListener(origin: () => string, handler: WebHandler): RequestListener {
  return (req, res) => {
    respond(req, res, origin(), handler).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  };
}

async function respond(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  handler: WebHandler,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(", "));
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
