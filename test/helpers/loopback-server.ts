import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { atEachFileEnd } from "./file-end.ts";

/*
 * A small HTTP server on a free port of 127.0.0.1, for what the tests stand
 * in for: a build hook, a hub, a published site, a portal the reference
 * portal cannot imitate.
 */

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  readonly server: Server;
  /** Stops it, dropping open connections. */
  close(): Promise<void>;
}

const open = new Set<Server>();

// What a test file left open closes when it ends.
atEachFileEnd(() => Promise.all([...open].map(closeServer)));

/** Serves `handler` until close(), or until the test file ends. */
export async function serveOnLoopback(handler: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  open.add(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, server, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  open.delete(server);
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
