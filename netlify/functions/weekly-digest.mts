import { readDigestMailConfig } from "../../src/config/digest.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { sendDigest } from "../../src/digest/send-digest.ts";
import { PublisherError } from "../../src/errors.ts";
import { runLogged } from "../../src/hosts/function-run.ts";

/**
 * Netlify scheduled function: every day at the hour of its schedule in
 * netlify.toml ([functions."weekly-digest"], in UTC), and on DIGEST_DAY in
 * SITE_TIMEZONE only, it mails the published site's latest weekly digest
 * through SMTP_URL to DIGEST_TO (docs/followers.md, "Weekly email digest").
 * One run a day, one day a week: a week is sent once. A function keeps no
 * files between runs, so there is no record of what was sent here; Netlify
 * does not run a scheduled function again after a failure, and the
 * Message-ID is the week's own, so a run started by hand is known to mail
 * clients that keep one copy per ID.
 *
 * Without SMTP_URL it does nothing: the digest by mail is for sites that ask
 * for it. The variables must be set for the Functions scope: SMTP_URL,
 * DIGEST_FROM, DIGEST_TO (DIGEST_UNSUBSCRIBE_URL), and those the build has
 * (SITE_URL, SITE_LANG, SITE_TIMEZONE, DIGEST_DAY), which decide the week due.
 * Netlify stops the function after 30 seconds: reading the site and each
 * step of the SMTP conversation get 10.
 */
export const STEP_DEADLINE_MS = 10_000;

export default function weeklyDigest(_request: Request): Promise<Response> {
  const env = process.env;
  return runLogged("weekly-digest", async (log) => {
    if (!env.SMTP_URL?.trim()) {
      log("SMTP_URL is not set for the Functions scope: no digest is mailed.");
      return true;
    }
    const published = env.SITE_URL?.trim() || env.URL?.trim();
    if (!published) throw new PublisherError("SITE_URL is not set for the Functions scope.");
    const result = await sendDigest({
      site: readSiteConfig(env),
      mail: readDigestMailConfig(env),
      location: published,
      scope: { kind: "site" },
      scheduled: true,
      record: null,
      log,
      timeoutMs: STEP_DEADLINE_MS,
    });
    return result.refused.length === 0;
  });
}
