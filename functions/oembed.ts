import { oembedResponse } from "../src/oembed/endpoint.ts";

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

export function onRequest({ request, env }: PagesContext): Promise<Response> {
  return oembedResponse(request, (path) => env.ASSETS.fetch(new URL(path, request.url)));
}
