import { CACHE_DIR_SETTINGS, readCacheDir } from "../config/api.ts";
import { DIGEST_MAIL_SETTINGS, readDigestMailConfig } from "../config/digest.ts";
import { readSiteConfig, SITE_SETTINGS } from "../config/site.ts";
import { sendDigest } from "../digest/send-digest.ts";
import { sentRecordPath } from "../digest/sent-record.ts";
import { UsageError } from "../errors.ts";
import type { DigestScope } from "../model/url-scheme.ts";
import { defineCommand } from "./command-line.ts";
import { publishedLocation } from "./published-option.ts";
import { runCli } from "./run.ts";

/**
 * `npm run send-digest [-- --site <folder or URL>] [--calendar <id> | --category <id>] [--scheduled]`:
 * mails the latest weekly digest through the organization's SMTP server
 * (docs/followers.md, "Weekly email digest"). Exit 0 when it was sent, or
 * when there was nothing to send (not DIGEST_DAY with --scheduled, or sent
 * already this week); 1 with one line when the published digest is not the
 * week due, the server could not take it, or refused a recipient.
 */
const SEND_DIGEST = defineCommand({
  run: "npm run send-digest",
  summary:
    "Mails the latest weekly digest (latest.html and latest.txt of a built site's folder or of the published site) to DIGEST_TO through SMTP_URL, as text and HTML; a week goes to a list once.",
  options: {
    site: {
      type: "string",
      value: "<folder or URL>",
      meaning: "the built site's folder, or the published site (default SITE_URL)",
    },
    calendar: { type: "string", value: "<id>", meaning: "a calendar's digest, not the site's" },
    category: { type: "string", value: "<id>", meaning: "a category's digest, not the site's" },
    scheduled: {
      type: "boolean",
      meaning: "send only on DIGEST_DAY (in SITE_TIMEZONE), for a schedule that runs daily",
    },
  },
  settings: [...SITE_SETTINGS, ...DIGEST_MAIL_SETTINGS, ...CACHE_DIR_SETTINGS],
});

runCli(SEND_DIGEST, async ({ values }) => {
  if (values.calendar && values.category) {
    throw new UsageError("--calendar and --category: one digest at a time");
  }
  const scope: DigestScope = values.calendar
    ? { kind: "calendar", id: values.calendar, name: "" }
    : values.category
      ? { kind: "category", id: values.category, name: "" }
      : { kind: "site" };
  const site = readSiteConfig(process.env);
  const mail = readDigestMailConfig(process.env);
  const result = await sendDigest({
    site,
    mail,
    location: publishedLocation(values.site, process.env, "published site"),
    scope,
    scheduled: values.scheduled === true,
    record: sentRecordPath(readCacheDir(process.env)),
    log: (line) => console.log(line),
  });
  return result.refused.length > 0 ? 1 : 0;
});
