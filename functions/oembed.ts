import { answerOembed } from "../src/oembed/endpoint.ts";

/**
 * Cloudflare Pages Function: the oEmbed endpoint at `{site}/oembed` (the file
 * name is the route; docs/widget.md, "oEmbed"). `wrangler pages deploy _site`
 * run from the repository's root, or a Pages build of the repository, deploys
 * it beside the site. The static answers come from the deploy's own files
 * through the ASSETS binding, without a request over the network.
 */

/** The part of the Pages Functions context this function uses. */
interface PagesContext {
  readonly request: Request;
  readonly env: { readonly ASSETS: { fetch(input: URL | string): Promise<Response> } };
}

export async function onRequest(context: PagesContext): Promise<Response> {
  const { request, env } = context;
  const reply = await answerOembed(request.method, request.url, async (segment) => {
    // paths.oembedOfSegment (src/model/url-scheme.ts), which a Worker cannot import.
    const response = await env.ASSETS.fetch(new URL(`/oembed/${segment}.json`, request.url));
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`The static answer answered ${response.status}`);
    return response.text();
  });
  return new Response(request.method === "HEAD" ? null : reply.body, {
    status: reply.status,
    headers: reply.headers,
  });
}
