import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import weeklyDigest from "../../netlify/functions/weekly-digest.mts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { NOW } from "../helpers/clock.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp-sink.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";

/*
 * The Netlify scheduled function that mails the weekly digest: the shared
 * demo build served over HTTP as its host serves it, a real SMTP server on
 * 127.0.0.1 (Debian's aiosmtpd). The demo's latest digest is of the week
 * from Monday 16 March, out since Sunday 15 March.
 */

const hasAiosmtpd = hasPythonModule("aiosmtpd");

let site: PreviewServer;
let sink: SmtpSink;

beforeAll(async () => {
  if (!hasAiosmtpd) return;
  const demo = await builtDemoSite();
  site = await startPreviewServer({ root: demo.dir, port: 0 });
  sink = await startSmtpSink();
}, 240_000);

afterAll(async () => {
  await site?.close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The function's answer, run at `now` with the digest's settings of the Functions scope. */
async function run(now: string, env: Record<string, string> = {}) {
  const settings: Record<string, string> = {
    SITE_URL: site.origin,
    SITE_NOW: now,
    SITE_LANG: "en-GB",
    SITE_TIMEZONE: "Europe/Amsterdam",
    DIGEST_DAY: "",
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    DIGEST_FROM: "events@example.org",
    DIGEST_TO: "events-digest@lists.example.org",
    DIGEST_UNSUBSCRIBE_URL: "",
    ...env,
  };
  for (const [name, value] of Object.entries(settings)) vi.stubEnv(name, value);
  vi.spyOn(console, "log").mockImplementation(() => {});
  const response = await weeklyDigest(
    new Request("http://localhost/.netlify/functions/weekly-digest"),
  );
  return { status: response.status, body: await response.text() };
}

describe.runIf(hasAiosmtpd)("weekly-digest function", () => {
  it("should mail the published site's latest digest on DIGEST_DAY", async () => {
    // Sunday 15 March, 07:00 UTC: the function's daily run on the day the digest came out.
    const answer = await run("2026-03-15T07:00:00Z");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(
      /^sent: "Events next week: 16\s*–\s*22 March" to 1 recipient through smtp:\/\/127\.0\.0\.1:\d+ \(<2026-03-16\.digest\.[0-9a-f]{12}@127\.0\.0\.1>\)\n$/,
    );
    expect(sink.received().map((mail) => mail.rcptTos)).toEqual([
      ["events-digest@lists.example.org"],
    ]);
  });

  it("should send nothing on the other days of the week", async () => {
    const answer = await run(NOW);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(
      "is a Friday; the digest goes out on Sundays (DIGEST_DAY): nothing sent.",
    );
    expect(sink.received()).toHaveLength(1);
  });

  it("should answer 500 in one line, and send nothing, when the site was not rebuilt since the next digest came out", async () => {
    const answer = await run("2026-03-22T07:00:00Z");
    expect(answer.status).toBe(500);
    expect(answer.body).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/digest\/latest\.html is the digest of the week from 2026-03-16, but the week from 2026-03-23 is due since 2026-03-22: the site has not been built since; nothing sent\.\n$/,
    );
    expect(sink.received()).toHaveLength(1);
  });

  it("should do nothing without SMTP_URL: the digest by mail is for sites that ask for it", async () => {
    const answer = await run("2026-03-15T07:00:00Z", { SMTP_URL: "" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(
      /^SMTP_URL is not set for the Functions scope: no digest is mailed\.\n$/,
    );
    expect(sink.received()).toHaveLength(1);
  });
});
