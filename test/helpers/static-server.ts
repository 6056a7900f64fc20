import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { serveOnLoopback } from "./loopback-server.ts";
import { useForTests } from "./use-for-tests.ts";

/** The built site as the CDN serves it (src/hosts/preview-server.ts). */
export type RunningServer = PreviewServer;
export const startStaticServer = (): Promise<PreviewServer> => startPreviewServer();

export interface HostServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** Serves `html` at a new address of this other site; returns that address. */
  add(html: string): string;
  close(): Promise<void>;
}

/** Another site's server, on its own loopback origin: the pages that embed the widget. */
export async function startHostServer(): Promise<HostServer> {
  const pages = new Map<string, string>();
  const { origin, close } = await serveOnLoopback((req, res) => {
    const html = pages.get(new URL(req.url ?? "/", "http://x").pathname);
    if (html === undefined) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  return {
    origin,
    add(html) {
      const path = `/page-${pages.size + 1}.html`;
      pages.set(path, html);
      return origin + path;
    },
    close,
  };
}

/** Another site's server for the tests of one describe block (call it in the block). */
export function useHostServer(): HostServer {
  const ready = useForTests("the host", startHostServer, (host) => host.close());
  return {
    get origin() {
      return ready().origin;
    },
    add: (html) => ready().add(html),
    close: () => ready().close(),
  };
}

/** A page of another site with `body` in its main part, after its heading. */
export function hostPage(body: string, { title = "Host page", head = "" } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title>${head}</head><body><main><h1>Our neighbourhood</h1>${body}<p>After the widget.</p></main></body></html>`;
}
