import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { paths } from "../model/url-scheme.ts";
import {
  answerOembed,
  CALENDAR_SEGMENT,
  LANGUAGE_FOLDER,
  type StaticAnswerReader,
} from "./endpoint.ts";

/**
 * The oEmbed endpoint over Node's HTTP server, answering from a built site's
 * folder: what `npm run preview` (src/hosts/preview-server.ts) and `npm start`
 * (src/cli/serve.ts) serve at `{site}/oembed`, the same answers the Netlify
 * and Cloudflare functions give.
 */
export function answersInFolder(root: string): StaticAnswerReader {
  return async (segment, folder) => {
    if (!CALENDAR_SEGMENT.test(segment) || !LANGUAGE_FOLDER.test(folder)) return null;
    // Both are checked above, so the path stays inside the site's folder.
    const path = join(root, folder, paths.oembedOfSegment(segment).slice(1));
    return readFile(path, "utf8").catch(() => null);
  };
}

export async function serveOembed(
  request: IncomingMessage,
  response: ServerResponse,
  root: string,
): Promise<void> {
  const method = request.method ?? "GET";
  const reply = await answerOembed(
    method,
    new URL(request.url ?? "/", "http://localhost").href,
    answersInFolder(root),
  );
  response.writeHead(reply.status, reply.headers);
  response.end(method === "HEAD" ? undefined : reply.body);
}
