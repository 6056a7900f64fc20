import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { startPortal, type WireCalendar } from "../../src/portal/index.ts";
import { TokenStore } from "../../src/portal/token-store.ts";
import { NOW } from "../helpers/clock.ts";
import { call } from "../helpers/http-requests.ts";
import { usePortal, withPortal } from "../helpers/with-portal.ts";

const OTHER_ORG = "riverside-library";

describe("portal authentication", () => {
  const portal = usePortal();

  it("should answer a request without a token 401 with a Bearer challenge and no error code", async () => {
    const reply = await call(`${portal().url}/event-calendars`);
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toBe('Bearer realm="event-calendar"');
    expect(reply.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(reply.json()).toMatchObject({
      type: `${portal().origin}/problems/unauthorized`,
      title: "Authentication required",
      status: 401,
      detail: expect.any(String),
    });
  });

  it("should treat another scheme as missing Bearer credentials", async () => {
    const reply = await call(`${portal().url}/event-calendars`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${portal().token}`).toString("base64")}` },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toBe('Bearer realm="event-calendar"');
  });

  it.each([
    ["malformed", "Bearer not a token!"],
    ["empty", "Bearer "],
    ["unknown", "Bearer ecp_aaaaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["wrong secret", "WRONG_SECRET"],
  ])("should answer a %s token 401 with error=invalid_token", async (_label, header) => {
    const value = header === "WRONG_SECRET" ? `Bearer ${portal().token.slice(0, -4)}AAAA` : header;
    const reply = await call(`${portal().url}/event-calendars`, {
      headers: { authorization: value },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toMatch(
      /^Bearer realm="event-calendar", error="invalid_token"/,
    );
    expect(reply.text).not.toContain(portal().token);
  });

  it("should refuse a revoked token", async () => {
    const token = portal().issueToken(portal().organizationId);
    expect((await call(`${portal().url}/event-calendars`, { token })).status).toBe(200);
    expect(portal().revokeToken(token)).toBe(true);
    const reply = await call(`${portal().url}/event-calendars`, { token });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toContain('error="invalid_token"');
    expect(reply.json<{ detail: string }>().detail).toMatch(/revoked/);
  });

  it("should accept the scheme name case-insensitively", async () => {
    const reply = await call(`${portal().url}/event-calendars`, {
      headers: { authorization: `bearer ${portal().token}` },
    });
    expect(reply.status).toBe(200);
  });

  it("should refuse to issue tokens for organizations the dataset does not have", () => {
    expect(() => portal().issueToken("nobody")).toThrow(/nobody/);
  });
});

describe("portal organization isolation", () => {
  const portal = usePortal();
  let otherToken: string;
  beforeAll(() => {
    otherToken = portal().issueToken(OTHER_ORG);
  });

  const calendarIds = async (token: string) =>
    (await call(`${portal().url}/event-calendars`, { token }))
      .json<WireCalendar[]>()
      .map((c) => c.id)
      .sort();

  it("should list only each organization's calendars, with the shared one in both", async () => {
    expect(await calendarIds(portal().token)).toEqual(["city", "community", "culture", "sport"]);
    expect(await calendarIds(otherToken)).toEqual(["city", "library"]);
  });

  it("should answer another organization's calendar exactly like an unknown one", async () => {
    const foreign = await call(`${portal().url}/event-calendar/library/events`, {
      token: portal().token,
    });
    const unknown = await call(`${portal().url}/event-calendar/no-such-calendar/events`, {
      token: portal().token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    const back = await call(`${portal().url}/event-calendar/community/events`, {
      token: otherToken,
    });
    expect(back.status).toBe(404);
  });

  it("should hide the details of another organization's events", async () => {
    const events = (
      await call(`${portal().url}/event-calendar/library/events`, { token: otherToken })
    ).json<Array<{ id: string }>>();
    const id = events[0]?.id;
    expect(id).toBeDefined();
    const reply = await call(`${portal().url}/event-calendar/library/event/${id}/details`, {
      token: portal().token,
    });
    expect(reply.status).toBe(404);
  });

  it("should answer an event of another calendar 404", async () => {
    const events = (
      await call(`${portal().url}/event-calendar/sport/events`, { token: portal().token })
    ).json<Array<{ id: string }>>();
    const reply = await call(
      `${portal().url}/event-calendar/community/event/${events[0]?.id}/details`,
      {
        token: portal().token,
      },
    );
    expect(reply.status).toBe(404);
    expect(reply.json<{ detail: string }>().detail).toMatch(/event/);
  });
});

describe("portal auth modes", () => {
  it("should take the token from a named header with auth header:<Name>", async () => {
    await withPortal({ auth: "header:X-Api-Key" }, async (portal) => {
      const ok = await call(`${portal.url}/event-calendars`, {
        headers: { "x-api-key": portal.token },
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.vary).toBe("x-api-key");
      const bearer = await call(`${portal.url}/event-calendars`, { token: portal.token });
      expect(bearer.status).toBe(401);
      expect(bearer.headers["www-authenticate"]).toBe(
        'ApiKey realm="event-calendar", header="x-api-key"',
      );
      const wrong = await call(`${portal.url}/event-calendars`, {
        headers: { "x-api-key": "nope" },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');
    });
  });

  it("should take the token after another Authorization scheme with auth scheme:<Scheme>", async () => {
    await withPortal({ auth: "scheme:Token" }, async (portal) => {
      const url = `${portal.url}/event-calendars`;
      const ok = await call(url, { headers: { authorization: `Token ${portal.token}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.vary).toBe("Authorization");
      const bearer = await call(url, { token: portal.token });
      expect(bearer.status).toBe(401);
      expect(bearer.headers["www-authenticate"]).toBe('Token realm="event-calendar"');
      const wrong = await call(url, { headers: { authorization: "Token nope" } });
      expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');
    });
  });

  it("should take the token from a query parameter with auth query:<name> and keep it out of links", async () => {
    await withPortal({ auth: "query:api_key" }, async (portal) => {
      const url = `${portal.url}/event-calendar/community/events?limit=5&api_key=${portal.token}`;
      const ok = await call(url);
      expect(ok.status).toBe(200);
      expect(ok.headers.link).toBeDefined();
      expect(ok.headers.link).not.toContain(portal.token);
      expect(ok.headers.link).not.toContain("api_key");
      expect((await call(`${portal.url}/event-calendars`, { token: portal.token })).status).toBe(
        401,
      );
      const twice = await call(`${portal.url}/event-calendars?api_key=${portal.token}&api_key=x`);
      expect(twice.status).toBe(401);
    });
  });
});

describe("portal token file", () => {
  it("should accept tokens issued into the file and keep them when the file breaks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-tokens-"));
    const file = join(dir, "tokens.json");
    const issued = new TokenStore(file).issue("amstel-community", true).token;
    const portal = await startPortal({ port: 0, now: NOW, tokensFile: file });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect((await call(`${portal.url}/event-calendars`, { token: issued })).status).toBe(200);
      expect(readFileSync(file, "utf8")).not.toContain(issued.slice(17));
      writeFileSync(file, "{ broken");
      // The file is re-read at most once a second.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await call(`${portal.url}/event-calendars`, { token: issued })).status).toBe(200);
      expect((await call(`${portal.url}/event-calendars`, { token: portal.token })).status).toBe(
        200,
      );
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("not valid JSON"));
      expect(String(warn.mock.calls)).not.toContain(issued);
    } finally {
      warn.mockRestore();
      await portal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
