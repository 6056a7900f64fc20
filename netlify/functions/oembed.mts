import { oembedResponse } from "../../src/oembed/endpoint.ts";

/**
 * Netlify Function: the oEmbed endpoint at `{site}/oembed` (docs/widget.md,
 * "oEmbed"; the answers are src/oembed/endpoint.ts's). It reads the static
 * answers of the deploy it belongs to from the deploy's own address, so it
 * needs no settings and never answers for another build. Netlify bundles it
 * with esbuild (netlify.toml [functions]); it uses nothing outside the
 * project's own code and the platform's fetch.
 */
export default function oembed(request: Request): Promise<Response> {
  const origin = new URL(request.url).origin;
  return oembedResponse(request, (path) =>
    fetch(`${origin}${path}`, { signal: AbortSignal.timeout(5000) }),
  );
}

/** Netlify reads this literal: the function answers at this path instead of /.netlify/functions/oembed. */
export const config = { path: "/oembed" };
