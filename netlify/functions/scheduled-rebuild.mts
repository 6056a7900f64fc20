import { triggerRebuild } from "../../src/build/trigger-rebuild.ts";

/**
 * Netlify scheduled function: starts a rebuild so that what changed in the
 * portal reaches the site, the feeds, the calendars and every widget. The
 * schedule is set in netlify.toml ([functions."scheduled-rebuild"]), the one
 * place the build also reads it from. BUILD_HOOK_URL must be set for the
 * Functions scope in the Netlify UI (netlify.toml variables do not reach
 * functions).
 */
export default async function scheduledRebuild(_request: Request): Promise<Response> {
  const result = await triggerRebuild({ hookUrl: process.env.BUILD_HOOK_URL });
  return new Response(`${result.message}\n`, {
    status: result.ok ? 200 : 500,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
