import { PublisherError } from "../errors.ts";

/**
 * How the host functions that do a task (netlify/functions: the scheduled
 * change check, the ping after a deploy) answer: every line they log,
 * stamped with the function's name and time in the host's function log,
 * and the same lines as the response, 200 when the task went well, 500
 * otherwise. An expected failure is one line; anything else is a bug, whose
 * stack goes to the function log only.
 */
export async function runLogged(
  name: string,
  task: (log: (line: string) => void) => Promise<boolean>,
): Promise<Response> {
  const stamp = `${name} ${new Date().toISOString()}:`;
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    console.log(`${stamp} ${line}`);
  };
  let ok = false;
  try {
    ok = await task(log);
  } catch (error) {
    log(
      `error: ${error instanceof PublisherError ? error.message : "unexpected failure; see the function log"}`,
    );
    if (!(error instanceof PublisherError)) console.error(error);
  }
  return new Response(`${lines.join("\n")}\n`, {
    status: ok ? 200 : 500,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
