import { connect } from "node:net";
import { request } from "undici";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: <T = unknown>() => T;
}

/** GET (or another method) over real HTTP; headers are lower-cased strings. */
export async function call(
  url: string,
  options: { token?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await request(url, {
    method: (options.method ?? "GET") as "GET",
    headers,
  });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    flat[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return { status: res.statusCode, headers: flat, text, json: <T>() => JSON.parse(text) as T };
}

/**
 * Sends a raw request target on a fresh socket, for targets an HTTP client
 * would normalize or refuse, and returns the status code of the answer.
 */
export function rawStatus(origin: string, target: string, extraHeaders = ""): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    // An idle socket this long is a server that will not answer, however busy the machine.
    socket.setTimeout(120_000, () => socket.destroy(new Error("raw request timed out")));
    socket.on("connect", () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\n${extraHeaders}Connection: close\r\n\r\n`,
      ),
    );
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match) resolve(Number(match[1]));
      else reject(new Error(`no HTTP status in ${JSON.stringify(data.slice(0, 80))}`));
    });
  });
}

/** Parses the rel="next" target of a Link header (RFC 8288). */
export function nextLink(link: string | undefined): string | null {
  if (!link) return null;
  const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link);
  return match?.[1] ?? null;
}
