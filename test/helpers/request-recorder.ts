import { serveOnLoopback } from "./loopback-server.ts";

/** A secret-looking hook id: tests assert it never appears in any output. */
export const HOOK_ID = "7d1e0c9b8a6f5e4d3c2b1a09";

export interface Recorder {
  readonly url: string;
  /** Bodies of the POSTs received, in order. */
  readonly calls: { path: string; body: string }[];
  close(): Promise<void>;
}

/** A local stand-in for a build hook or a WebSub hub: records every request and answers `status`. */
export async function startRecorder(path: string, status = 200): Promise<Recorder> {
  const calls: { path: string; body: string }[] = [];
  const { origin, close } = await serveOnLoopback((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      calls.push({ path: request.url ?? "", body });
      response.writeHead(status).end();
    });
  });
  return { url: `${origin}${path}`, calls, close };
}
