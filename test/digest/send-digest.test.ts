import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hoursAfterNow } from "../helpers/clock.ts";
import { type BuiltSite, type CommandRun, runScript } from "../helpers/demo-build.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { parseMail } from "../helpers/python-readers.ts";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp-sink.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * `npm run send-digest` against a real SMTP server on 127.0.0.1 (Debian's
 * aiosmtpd, which requires the login), sending the shared demo build's
 * digest; the message the server received is read back by Python's email
 * package. NOW is Friday 20 March: the digest due is the week from Monday
 * 16 March, out since Sunday 15 March.
 */

const hasAiosmtpd = hasPythonModule("aiosmtpd");

const USER = "digest";
const PASSWORD = "pa55-w0rd-Zq8";
const TOKEN = "tok-9f8e7d6c5b4a39281706";

let demo: BuiltSite;
let sink: SmtpSink;

beforeAll(async () => {
  if (!hasAiosmtpd) return;
  demo = await builtDemoSite();
  sink = await startSmtpSink({ user: USER, password: PASSWORD });
}, 240_000);

/** Runs the command against the demo build with the mail settings; `cache` keeps its record. */
function sendDigest(
  cache: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
): Promise<CommandRun> {
  return runScript("src/cli/send-digest.ts", ["--site", demo.dir, ...args], {
    SMTP_URL: `smtp://${USER}:${PASSWORD}@127.0.0.1:${sink.port}`,
    DIGEST_FROM: '"City Events" <events@example.org>',
    DIGEST_TO: "events-digest@lists.example.org, Ann de Vries <ann@example.org>",
    DIGEST_UNSUBSCRIBE_URL: "https://lists.example.org/unsubscribe/events",
    EVENT_API_TOKEN: TOKEN,
    EVENT_API_CACHE_DIR: cache,
    ...env,
  });
}

describe.runIf(hasAiosmtpd)("send-digest", () => {
  let first: CommandRun;
  let cache: string;

  beforeAll(async () => {
    cache = tempDir("ecp-digest-sent-");
    first = await sendDigest(cache);
  }, 60_000);

  it("should deliver the digest to every recipient as text and HTML, with the list's headers", () => {
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const [received, ...more] = sink.received();
    expect(more).toEqual([]);
    expect(received?.login).toBe(USER);
    expect(received?.mailFrom).toBe("events@example.org");
    expect(received?.rcptTos).toEqual(["events-digest@lists.example.org", "ann@example.org"]);
    const [mail] = parseMail([received?.file ?? ""]);
    expect(mail?.defects).toEqual([]);
    const header = (name: string) => mail?.headers[name] ?? [];
    expect(header("from")).toEqual(["City Events <events@example.org>"]);
    expect(header("to")).toEqual([
      "events-digest@lists.example.org, Ann de Vries <ann@example.org>",
    ]);
    expect(header("subject")[0]).toMatch(/^Events next week: 16\s*–\s*22 March$/);
    expect(header("list-unsubscribe")).toEqual(["<https://lists.example.org/unsubscribe/events>"]);
    expect(header("list-unsubscribe-post")).toEqual(["List-Unsubscribe=One-Click"]);
    expect(header("auto-submitted")).toEqual(["auto-generated"]);
    expect(header("message-id")[0]).toMatch(
      /^<2026-03-16\.digest\.[0-9a-f]{12}@events\.example\.org>$/,
    );
    expect(mail?.type).toBe("multipart/alternative");
    expect(mail?.parts.map((part) => [part.type, part.charset])).toEqual([
      ["text/plain", "utf-8"],
      ["text/html", "utf-8"],
    ]);
    const [text, html] = (mail?.parts ?? []).map((part) => ({
      ...part,
      // Lines end in CRLF on the wire (RFC 5322), and so in what the parser decodes.
      content: part.content.replace(/\r\n/g, "\n"),
    }));
    const published = (file: string) => readFileSync(join(demo.dir, file), "utf8");
    expect(text?.content).toContain(published("digest/latest.txt").trimEnd());
    expect(
      text?.content.trimEnd().endsWith("Unsubscribe: https://lists.example.org/unsubscribe/events"),
    ).toBe(true);
    const [before, after] = published("digest/latest.html").split("<!--digest:unsubscribe-->");
    expect(html?.content.startsWith(before ?? "-")).toBe(true);
    expect(html?.content).toContain('<a href="https://lists.example.org/unsubscribe/events"');
    expect(html?.content.endsWith(after ?? "-")).toBe(true);
    expect(first.stdout).toMatch(
      /^sent: "Events next week: 16\s*–\s*22 March" to 2 recipients through smtp:\/\/digest:\*\*\*@127\.0\.0\.1:\d+ \(<2026-03-16\.digest\.[0-9a-f]{12}@events\.example\.org>\)\n$/,
    );
  });

  it("should write neither the SMTP password nor the API token into the message, the output or its record", () => {
    const raw = readFileSync(sink.received()[0]?.file ?? "", "utf8");
    const record = readFileSync(join(cache, "digest", "sent.json"), "utf8");
    for (const text of [raw, first.stdout, first.stderr, record]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(encodeURIComponent(PASSWORD));
      expect(text).not.toContain(TOKEN);
    }
  });

  it("should send a week to a list once: a second run finds it in its record and sends nothing", async () => {
    const again = await sendDigest(cache);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      /^already sent: "Events next week: .*" went out at 2026-03-20T12:00:00Z \(<2026-03-16\.digest\.[0-9a-f]{12}@events\.example\.org>\); nothing sent\.\n$/,
    );
    expect(sink.received()).toHaveLength(1);
  });

  it("should send on DIGEST_DAY only when scheduled", async () => {
    const friday = await sendDigest(tempDir("ecp-digest-sent-"), {}, ["--scheduled"]);
    expect(friday.status).toBe(0);
    expect(friday.stdout).toBe(
      "today (2026-03-20 in Europe/Amsterdam) is a Friday; the digest goes out on Sundays (DIGEST_DAY): nothing sent.\n",
    );
    expect(sink.received()).toHaveLength(1);
    // Sunday 15 March, 09:00 in Amsterdam: the day the published digest came out.
    const sunday = await sendDigest(
      tempDir("ecp-digest-sent-"),
      { SITE_NOW: "2026-03-15T08:00:00Z" },
      ["--scheduled"],
    );
    expect(sunday.stderr).toBe("");
    expect(sunday.stdout).toMatch(/^sent: /);
    expect(sink.received()).toHaveLength(2);
  });

  it("should send nothing from a site not built since the next digest came out, or ahead of the sender's week", async () => {
    // A week later: the week from 23 March is due, the site still has the one from 16 March.
    const stale = await sendDigest(tempDir("ecp-digest-sent-"), {
      SITE_NOW: hoursAfterNow(7 * 24),
    });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toBe(
      `error: ${join(demo.dir, "digest/latest.html")} is the digest of the week from 2026-03-16, but the week from 2026-03-23 is due since 2026-03-22: the site has not been built since; nothing sent.\n`,
    );
    // SITE_LANG=en-US for the sender, en-GB at the build: its weeks start on Sunday 15 March.
    const ahead = await sendDigest(tempDir("ecp-digest-sent-"), { SITE_LANG: "en-US" });
    expect(ahead.status).toBe(1);
    expect(ahead.stderr).toMatch(
      /is the digest of the week from 2026-03-16, ahead of the week from 2026-03-15 that is due: DIGEST_DAY, SITE_LANG or SITE_TIMEZONE differ from the build's; nothing sent\.\n$/,
    );
    expect(sink.received()).toHaveLength(2);
  });

  it("should fail in one line naming the server without its password when the login is refused", async () => {
    const refused = await sendDigest(tempDir("ecp-digest-sent-"), {
      SMTP_URL: `smtp://${USER}:wrong-${PASSWORD}@127.0.0.1:${sink.port}`,
    });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      /^error: smtp:\/\/digest:\*\*\*@127\.0\.0\.1:\d+ did not take the digest: Invalid login: 535 [^\n]*\n$/,
    );
    expect(refused.stderr).not.toContain(PASSWORD);
  });
});
