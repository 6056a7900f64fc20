/**
 * Starts a new deploy by POSTing the host's build hook. Runs inside a Netlify
 * scheduled function, which is stopped after 30 seconds, so the request has
 * its own shorter deadline. The hook URL is a secret (anyone holding it can
 * start builds): it never appears in a log line or a result, only a redacted
 * form does.
 */
export interface TriggerRebuildOptions {
  /** The build hook URL, normally from BUILD_HOOK_URL. */
  readonly hookUrl: string | undefined;
  readonly fetch?: typeof globalThis.fetch;
  readonly now?: () => Date;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
  /** The deploy's title on Netlify (default "Scheduled rebuild"). */
  readonly title?: string;
  /**
   * The build may shrink the site: the body is `ALLOW_SHRINK=1`, which Netlify
   * hands to the build as INCOMING_HOOK_BODY and the build reads as the
   * one-build allowance (src/config/publish.ts).
   */
  readonly allowShrink?: boolean;
}

export interface TriggerRebuildResult {
  readonly ok: boolean;
  /** HTTP status of the hook's answer, when there was one. */
  readonly status?: number;
  /** One line for the function log, safe to show. */
  readonly message: string;
}

const HOOK_TIMEOUT_MS = 10_000;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export async function triggerRebuild(
  options: TriggerRebuildOptions,
): Promise<TriggerRebuildResult> {
  const { fetch = globalThis.fetch, now = () => new Date(), timeoutMs = HOOK_TIMEOUT_MS } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const finish = (result: TriggerRebuildResult): TriggerRebuildResult => {
    log(`scheduled-rebuild ${now().toISOString()}: ${result.message}`);
    return result;
  };

  const checked = checkHookUrl(options.hookUrl);
  if ("problem" in checked) return finish({ ok: false, message: checked.problem });
  const { url } = checked;
  const shown = redactHookUrl(url);
  if (url.hostname === "api.netlify.com") {
    // Netlify shows this title in the deploy list.
    url.searchParams.set("trigger_title", options.title ?? "Scheduled rebuild");
  }

  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      ...(options.allowShrink
        ? {
            // As `curl -d 'ALLOW_SHRINK=1'` sends it (docs/deploy.md, "Shrink guard").
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "ALLOW_SHRINK=1",
          }
        : { headers: { "content-type": "application/json" }, body: "{}" }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const reason = timedOut
      ? `no answer within ${timeoutMs / 1000} s`
      : describeNetworkError(error);
    return finish({
      ok: false,
      message: `build hook ${shown} failed: ${reason}; the next run will try again.`,
    });
  }
  // The body is not needed; release the connection.
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) {
    return finish({
      ok: false,
      status: response.status,
      message: `build hook ${shown} answered HTTP ${response.status}; no build was started. Check BUILD_HOOK_URL.`,
    });
  }
  return finish({
    ok: true,
    status: response.status,
    message: `build hook ${shown} accepted (HTTP ${response.status}).`,
  });
}

type CheckedHook = { url: URL } | { problem: string };

/** A hook must be an https URL; plain http only on loopback, for local runs and tests. */
function checkHookUrl(raw: string | undefined): CheckedHook {
  const value = raw?.trim();
  if (!value) {
    return {
      problem:
        "BUILD_HOOK_URL is not set; no rebuild was started. Create a build hook (Site configuration > Build & deploy > Continuous deployment > Build hooks) and set BUILD_HOOK_URL for the Functions scope.",
    };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The raw value may hold the secret, so it is not echoed.
    return { problem: "BUILD_HOOK_URL is not a valid URL (value hidden); no rebuild was started." };
  }
  const secure =
    url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure) {
    return {
      problem: `BUILD_HOOK_URL must be an https:// URL (got ${url.protocol}//…); no rebuild was started.`,
    };
  }
  if (url.username || url.password) {
    return { problem: "BUILD_HOOK_URL must not contain credentials; no rebuild was started." };
  }
  return { url };
}

/**
 * The origin and, when more segments follow, the first path segment:
 * "https://api.netlify.com/build_hooks/***". The id, any other segment and the
 * query string are hidden.
 */
export function redactHookUrl(url: URL): string {
  const [first, ...rest] = url.pathname.split("/").filter(Boolean);
  if (first === undefined && !url.search) return url.origin;
  return rest.length > 0 ? `${url.origin}/${first}/***` : `${url.origin}/***`;
}

function describeNetworkError(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === "string") return `network error ${cause.code}`;
  return "network error";
}
