import { describe, expect, it } from "vitest";
import { readDigestDay, readDigestMailConfig } from "../../src/config/digest.ts";
import { configRefusal } from "../helpers/config-refusal.ts";

const MAIL = {
  SMTP_URL: "smtps://digest%40example.org:p%40ss-W0rd@mail.example.org",
  DIGEST_FROM: '"City Events" <events@example.org>',
  DIGEST_TO: "events-digest@lists.example.org",
};

/** The ConfigError's message a setting gives. */
const refusal = (env: NodeJS.ProcessEnv) => configRefusal(() => readDigestMailConfig(env));

describe("digest settings", () => {
  it("should read DIGEST_DAY as a weekday in English, whole or short, and leave it to the language when unset", () => {
    expect(readDigestDay({})).toBeNull();
    expect(readDigestDay({ DIGEST_DAY: "Monday" })).toBe(1);
    expect(readDigestDay({ DIGEST_DAY: " sun " })).toBe(7);
    expect(() => readDigestDay({ DIGEST_DAY: "zondag" })).toThrow(
      'DIGEST_DAY: expected a day of the week in English, such as sunday or monday (or sun, mon); got "zondag".',
    );
  });

  it("should read the SMTP server, its credentials decoded, and show it only with the password hidden", () => {
    const { smtp, from, to, unsubscribe } = readDigestMailConfig(MAIL);
    expect(smtp).toEqual({
      host: "mail.example.org",
      port: 465,
      secure: true,
      requireTls: false,
      user: "digest@example.org",
      password: "p@ss-W0rd",
      shown: "smtps://digest%40example.org:***@mail.example.org",
    });
    expect(from).toEqual({ name: "City Events", address: "events@example.org" });
    expect(to).toEqual([{ name: "", address: "events-digest@lists.example.org" }]);
    expect(unsubscribe).toBeNull();
  });

  it("should require STARTTLS for smtp:// to another machine, and not for a relay on this one", () => {
    const other = readDigestMailConfig({ ...MAIL, SMTP_URL: "smtp://u:secret@mail.example.org" });
    expect(other.smtp).toMatchObject({ port: 587, secure: false, requireTls: true });
    const local = readDigestMailConfig({ ...MAIL, SMTP_URL: "smtp://127.0.0.1:2525" });
    expect(local.smtp).toMatchObject({ port: 2525, requireTls: false, user: null, password: null });
  });

  it("should name the variable of a bad value in one line, never with the password", () => {
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [{ ...MAIL, SMTP_URL: "" }, /^SMTP_URL is not set/],
      [
        { ...MAIL, SMTP_URL: "mail.example.org:secret-pw" },
        /^SMTP_URL: expected smtp:\/\/ or smtps:\/\//,
      ],
      [
        { ...MAIL, SMTP_URL: "not a url secret-pw" },
        /^SMTP_URL: not a URL .*the value is not shown/,
      ],
      [
        { ...MAIL, SMTP_URL: "https://u:secret-pw@mail.example.org" },
        /^SMTP_URL: expected smtp:\/\/ or smtps:\/\/, got https:\/\/u:\*\*\*@mail\.example\.org\.$/,
      ],
      [
        { ...MAIL, SMTP_URL: "smtp://u:secret-pw@mail.example.org/x?y" },
        /^SMTP_URL: expected only a server/,
      ],
      [{ ...MAIL, DIGEST_FROM: "" }, /^DIGEST_FROM is not set/],
      [
        { ...MAIL, DIGEST_FROM: "a@example.org, b@example.org" },
        /^DIGEST_FROM: expected one address\.$/,
      ],
      [{ ...MAIL, DIGEST_TO: "readers" }, /^DIGEST_TO: "readers" is not an e-mail address/],
      [
        { ...MAIL, DIGEST_TO: "a@example.org\r\nBcc: x@example.org" },
        /^DIGEST_TO: contains a line break/,
      ],
      [
        { ...MAIL, DIGEST_TO: Array.from({ length: 51 }, (_, i) => `r${i}@example.org`).join(",") },
        /^DIGEST_TO: 51 addresses; at most 50/,
      ],
      [
        { ...MAIL, DIGEST_UNSUBSCRIBE_URL: "ftp://lists.example.org/x" },
        /^DIGEST_UNSUBSCRIBE_URL: /,
      ],
    ];
    for (const [env, message] of cases) {
      const text = refusal(env);
      expect(text).toMatch(message);
      expect(text).not.toContain("secret-pw");
      expect(text.split("\n")).toHaveLength(1);
    }
  });

  it("should take several recipients, and one-click unsubscribing only for an https:// address", () => {
    const config = readDigestMailConfig({
      ...MAIL,
      DIGEST_TO: "events-digest@lists.example.org, Ann de Vries <ann@example.org>",
      DIGEST_UNSUBSCRIBE_URL: "https://lists.example.org/unsubscribe/events",
    });
    expect(config.to.map((to) => to.address)).toEqual([
      "events-digest@lists.example.org",
      "ann@example.org",
    ]);
    expect(config.unsubscribe).toEqual({
      url: "https://lists.example.org/unsubscribe/events",
      oneClick: true,
    });
    const mailto = readDigestMailConfig({
      ...MAIL,
      DIGEST_UNSUBSCRIBE_URL: "mailto:events-digest-leave@lists.example.org",
    });
    expect(mailto.unsubscribe).toEqual({
      url: "mailto:events-digest-leave@lists.example.org",
      oneClick: false,
    });
  });
});
