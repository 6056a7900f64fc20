import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { serveOnLoopback } from "./loopback-server.ts";

/** The built site as the CDN serves it (src/hosts/preview-server.ts). */
export type RunningServer = PreviewServer;
export const startStaticServer = (): Promise<PreviewServer> => startPreviewServer();

/** Serves fixed HTML pages (the "other site" that embeds the widget). */
export async function startHostServer(
  pages: () => Readonly<Record<string, string>>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const { origin, close } = await serveOnLoopback((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const html = pages()[path];
    if (html === undefined) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  return { origin, close };
}
