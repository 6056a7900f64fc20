import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkApi } from "../../src/cli/check-api.ts";
import { loadEnvFile } from "../../src/config/env-file.ts";
import {
  createDemoDataset,
  DIALECT_PRESETS,
  type DialectSpec,
  type RunningPortal,
  startPortal,
} from "../../src/portal/index.ts";
import { NOW } from "../helpers/clock.ts";
import { demoEvents } from "../helpers/demo-expectations.ts";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { apiEnv } from "../helpers/portal-env.ts";
import { envAfterBash, envFileLines, exportLines } from "../helpers/shell.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** Every event of the demo dataset: the dialect portal serves them all. */
const DEMO_EVENTS = demoEvents().length;

let portal: RunningPortal;
beforeAll(async () => {
  portal = await startPortal({ port: 0, now: NOW });
});
afterAll(() => portal.close());

async function run(env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  const chunks: string[] = [];
  const code = await checkApi(env, { write: (text: string) => chunks.push(text) });
  return { code, text: chunks.join("") };
}

describe("checkApi", () => {
  it("should list calendars with counts, a sample event and unmapped fields, and exit 0", async () => {
    const { code, text } = await run(apiEnv(portal));
    expect(code).toBe(0);
    expect(text).toContain("Token accepted: 4 calendars available.");
    expect(text).toMatch(/^ {2}community +\d+ events {2}Community$/m);
    expect(text).toContain("Sample event, as published:");
    expect(text).toContain('"descriptionHtml"');
    expect(text).toMatch(/Wire fields not used .*calendar\.eventCount/);
    expect(text).toContain("No problems found.");
    expect(text).not.toContain(portal.token);
  });

  it("should exit 1 with one line for a token rejected in every placement, after the portal's own words", async () => {
    const { code, text } = await run(apiEnv(portal, { EVENT_API_TOKEN: "ecp_not_a_real_token" }));
    expect(code).toBe(1);
    const lines = text.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^check-api: The portal rejected the token \(HTTP 401\) sent as EVENT_API_AUTH=bearer and in every other common placement \(header:X-Api-Key, .*query:access_token\): the token itself is likely wrong, expired or revoked/,
    );
    expect(lines).toContain(
      "  The portal said: Authentication required: The token is malformed; ask the organization administrator for a new one.",
    );
    expect(text).not.toContain("ecp_not_a_real_token");
  });

  it("should show where the portal answers differently: where it reads the token", async () => {
    const keyed = await startPortal({ port: 0, now: NOW, auth: "header:X-Api-Key" });
    // Well-formed, but not a token this portal issued.
    const wrong = `${keyed.token.slice(0, -4)}AAAA`;
    try {
      const { code, text } = await run(apiEnv(keyed, { EVENT_API_TOKEN: wrong }));
      expect(code).toBe(1);
      const lines = text.trim().split("\n");
      expect(lines.slice(1, 4)).toEqual([
        "The portal rejected the token (HTTP 401) sent as EVENT_API_AUTH=bearer; trying the other common placements with the same token, each once.",
        "  The portal said: Authentication required: This API needs a token; see docs/api.md, Authentication.",
        "  Sent as header:X-Api-Key, the portal answered differently (HTTP 401): Authentication required: The token is not valid; ask the organization administrator for a new one.",
      ]);
      expect(lines.at(-1)).toMatch(/^check-api: .*the token itself is likely wrong/);
      expect(text).not.toContain(wrong);
    } finally {
      await keyed.close();
    }
  });

  it("should show a rejection's body without the token or other secrets it echoes", async () => {
    const token = "ecp_k3yk3yk3yk3y_Zx9-echoed-back-by-a-careless-portal-0123456";
    const session = "s3ss-4f9e2a7c1b";
    // A portal that quotes the credential it got, wherever it was sent, and a secret of its own.
    const { origin, close } = await serveOnLoopback((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const sent =
        Object.entries(req.headers).find(([name]) => /auth|key|token/i.test(name))?.[1] ??
        [...url.searchParams.values()][0] ??
        "nothing";
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: "invalid_credentials",
          message: `Unknown key ${sent}; session_id=${session}`,
        }),
      );
    });
    try {
      const { code, text } = await run({
        ...apiEnv(portal),
        EVENT_API_URL: `${origin}/v1`,
        EVENT_API_TOKEN: token,
      });
      expect(code).toBe(1);
      expect(text).toContain(
        "  The portal said: invalid_credentials: Unknown key Bearer [redacted]; session_id=[redacted]\n",
      );
      for (const secret of [token, token.slice(17), session]) expect(text).not.toContain(secret);
    } finally {
      await close();
    }
  });

  it.each(["query:key", "header:X-Api-Token"])(
    "should find a token sent as %s from a Bearer start and pass once it is applied",
    async (auth) => {
      const placed = await startPortal({ port: 0, now: NOW, auth });
      try {
        const start = apiEnv(placed);
        const first = await run(start);
        expect(first.text).toContain(`The portal accepts the token as EVENT_API_AUTH=${auth}.`);
        expect(first.text).toContain(`export EVENT_API_AUTH='${auth}'`);
        expect(first.text).not.toContain(placed.token);
        expect(first.code).toBe(1);
        const second = await run({
          ...start,
          ...envAfterBash(exportLines(first.text)),
          EVENT_API_TOKEN: placed.token,
        });
        expect(second.text).toContain(`(token sent as ${auth})`);
        expect(second.code).toBe(0);
      } finally {
        await placed.close();
      }
    },
  );

  it("should report a calendar the organization cannot see", async () => {
    const { code, text } = await run(apiEnv(portal, { EVENT_API_CALENDARS: "community,library" }));
    expect(code).toBe(0);
    expect(text).toContain(
      'calendar "library" (EVENT_API_CALENDARS) is not available to this organization',
    );
  });

  it("should read .env in the folder it runs in, with the environment winning over it", async () => {
    const keyed = await startPortal({ port: 0, now: NOW, auth: "header:X-Api-Key" });
    const folder = mkdtempSync(join(tmpdir(), "ecp-project-"));
    try {
      writeFileSync(
        join(folder, ".env"),
        [
          `EVENT_API_URL=${keyed.url}`,
          "EVENT_API_AUTH=header:X-Api-Key",
          "EVENT_API_TOKEN=ecp_aaaaaaaaaaaa_a-stale-token-the-environment-overrides",
          `EVENT_API_CACHE_DIR=${join(folder, ".cache")}`,
        ].join("\n"),
      );
      const env = { ...process.env };
      for (const key of Object.keys(env)) if (/^(EVENT_API_|ENV_FILE$)/.test(key)) delete env[key];
      const tsx = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
      const child = spawn(process.execPath, ["--import", tsx, join(ROOT, "src/cli/check-api.ts")], {
        cwd: folder,
        env: { ...env, EVENT_API_TOKEN: keyed.token, SITE_NOW: NOW },
      });
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      const [code] = (await once(child, "close")) as [number];
      expect(stdout.split("\n")[0]).toMatch(
        /^Settings read from \.env: .*EVENT_API_AUTH.*; the environment wins for EVENT_API_TOKEN\.$/,
      );
      expect(stdout).toContain("(token sent as header:X-Api-Key)");
      expect(stdout).toContain("OK: ");
      expect(code).toBe(0);
    } finally {
      await keyed.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("should print a single line without a stack trace when run without configuration", () => {
    const env = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith("EVENT_API_")) delete env[key];
    const result = spawnSync(process.execPath, ["src/launch.mjs", "src/cli/check-api.ts"], {
      env,
      encoding: "utf8",
      // Only a hang takes this long: the command answers in seconds on a busy machine.
      timeout: 300_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout.trim()).toMatch(/^check-api: EVENT_API_URL: not set/);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

/** Runs a portal in a dialect, and check-api against it from the given settings. */
async function dialectPortal(dialect: string | DialectSpec, auth = "header:X-Api-Key") {
  // Pages of 20 make the event lists span pages.
  return startPortal({
    port: 0,
    now: NOW,
    dialect,
    auth,
    paging: "envelope-links",
    pageSizeMax: 20,
  });
}

describe("checkApi against a portal in another dialect", () => {
  let variant: RunningPortal;
  const work = mkdtempSync(join(tmpdir(), "ecp-check-api-"));
  beforeAll(async () => {
    variant = await dialectPortal("variant");
  });
  afterAll(async () => {
    await variant.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("should find the token's placement and a field map, print one block, and pass once it is applied", async () => {
    // A new user's start: URL and token only.
    const start = apiEnv(variant);
    const first = await run(start);
    expect(first.code).toBe(1);
    expect(first.text).toContain(
      "The portal rejected the token (HTTP 401) sent as EVENT_API_AUTH=bearer; trying the other common placements",
    );
    expect(first.text).toContain(
      "The portal accepts the token as EVENT_API_AUTH=header:X-Api-Key.",
    );
    expect(first.text).toContain(
      'Calendar list: the list under "data", no next page announced, 4 of 4',
    );
    expect(first.text).toContain(
      'Event list of "city": the list under "data", next page from a next URL in the envelope (links.next), 20 of 37 on the first page.',
    );
    expect(first.text).toContain('Event details: one record wrapped in "data", read inside it.');
    for (const proposal of [
      "event.start <- dateFrom",
      "event.end <- dateTo",
      "event.summary <- perex",
      "event.image <- mainImage",
      "event.categories <- labels",
      "event.onlineUrl <- streamLink",
      "event.registrationUrl <- ticketLink",
    ])
      expect(first.text).toContain(proposal);
    expect(first.text).toMatch(/^export EVENT_API_AUTH='header:X-Api-Key'$/m);
    expect(first.text).toMatch(/^EVENT_API_AUTH=header:X-Api-Key$/m);
    expect(first.text).toMatch(
      new RegExp(
        `check-api: the settings in effect do not work yet; with the settings above, ${DEMO_EVENTS} of ${DEMO_EVENTS} events can be published`,
      ),
    );
    expect(first.text).not.toContain(variant.token);

    // One paste into the shell (the token stays where it was), one more run.
    const pasted = envAfterBash(exportLines(first.text));
    const second = await run({ ...start, ...pasted, EVENT_API_TOKEN: variant.token });
    expect(second.text).toContain("No problems found.");
    expect(second.text.trim().split("\n").at(-1)).toBe(
      `OK: ${DEMO_EVENTS} of ${DEMO_EVENTS} events can be published.`,
    );
    expect(second.code).toBe(0);
    expect(second.text).toContain('"summary": "');
    expect(second.text).toMatch(/"geo": \{\s+"lat": \d+\.\d+,\s+"lon": \d+\.\d+\s+\}/);

    // The same settings saved as .env instead.
    const envFile = join(work, "saved.env");
    writeFileSync(envFile, envFileLines(first.text));
    const fromFile: NodeJS.ProcessEnv = {
      ENV_FILE: envFile,
      EVENT_API_TOKEN: variant.token,
      SITE_NOW: NOW,
    };
    loadEnvFile(fromFile, work);
    const third = await run(fromFile);
    expect(third.code).toBe(0);
    expect(third.text).toContain(`OK: ${DEMO_EVENTS} of ${DEMO_EVENTS} events can be published.`);
  });

  it("should fail loudly, naming the unread fields, when details add nothing and optional fields stay empty", async () => {
    // Every details-only field under a name nothing reads or can guess.
    const silent = await dialectPortal(
      {
        rename: {
          "event.summary": "f1",
          "event.description": "f2",
          "event.location": "f3",
          "event.onlineUrl": "f4",
          "event.image": "f5",
          "event.categories": "f6",
          "event.organizer": "f7",
          "event.registrationUrl": "f8",
          "event.createdAt": "f9",
          "event.attendanceMode": "f10",
          "event.accessibility": "f11",
        },
      },
      "bearer",
    );
    try {
      const { code, text } = await run(apiEnv(silent));
      expect(code).toBe(1);
      expect(text).not.toContain("No problems found");
      expect(text).toContain(
        "The details records add nothing to the list records, while they carry fields nothing reads: details.f1, details.f10,",
      );
      expect(text).toMatch(
        /Most optional event fields are empty in every sampled event \(summary, description, location, onlineUrl, image, categories, organizer, registrationUrl\)/,
      );
      expect(text).toContain("The settings in effect fail:");
      expect(text.trim().split("\n").at(-1)).toMatch(
        /^check-api: the settings in effect do not work yet/,
      );
      // What the values give away is proposed even under meaningless names.
      expect(text).toContain("event.description <- f2 (HTML text in 12 sampled records)");
    } finally {
      await silent.close();
    }
  });

  it("should name an unreadable event by the id the field map reads, not by a question mark", async () => {
    const renamed = await dialectPortal(
      { rename: { "event.id": "ref", "event.start": "kickoff" } },
      "bearer",
    );
    try {
      const { code, text } = await run(
        apiEnv(renamed, { EVENT_API_FIELD_MAP: '{"event":{"id":"ref"}}' }),
      );
      expect(code).toBe(1);
      expect(text).toContain(
        '  - No listed event could be read; the first: calendar "city", event "food-market-20260125": no start date.',
      );
      expect(text).not.toContain('event "?"');
    } finally {
      await renamed.close();
    }
  });

  it("should pass a field map written for the details envelope, reading it inside the unwrapped record", async () => {
    // As a site owner wrote it when details were read with their { "data": ... } around them.
    const map = {
      calendar: { updatedAt: "modified" },
      event: {
        start: "dateFrom",
        end: "dateTo",
        summary: "data.perex",
        image: "data.mainImage",
        categories: "data.labels",
        onlineUrl: "data.streamLink",
        registrationUrl: "data.ticketLink",
      },
    };
    const { code, text } = await run(
      apiEnv(variant, {
        EVENT_API_AUTH: "header:X-Api-Key",
        EVENT_API_FIELD_MAP: JSON.stringify(map),
      }),
    );
    expect(text).toContain('Event details: one record wrapped in "data", read inside it.');
    expect(text).toContain('"summary": "Local growers, bakers and street food on the square."');
    expect(text).toContain(
      "Wire fields not used (map them with EVENT_API_FIELD_MAP if they matter): calendar.eventCount\n",
    );
    expect(text).not.toContain("Proposed field map");
    expect(text.trim().split("\n").at(-1)).toBe(
      `OK: ${DEMO_EVENTS} of ${DEMO_EVENTS} events can be published.`,
    );
    expect(code).toBe(0);
  });

  it("should leave a field map entry that matches nothing out of the settings it proposes", async () => {
    const start = apiEnv(variant, {
      EVENT_API_AUTH: "header:X-Api-Key",
      EVENT_API_FIELD_MAP: JSON.stringify({
        event: { start: "dateFrom", end: "dateTo", summary: "data.blurb", image: "data.mainImage" },
      }),
    });
    const first = await run(start);
    expect(first.text).toContain(
      'EVENT_API_FIELD_MAP entries that match no field of the sampled records:\n  event.summary = "data.blurb": left out of the settings below.\n',
    );
    expect(first.text).toContain("event.summary <- perex");
    const pasted = envAfterBash(exportLines(first.text));
    const map = JSON.parse(pasted.EVENT_API_FIELD_MAP ?? "{}");
    expect(map.event).toMatchObject({ summary: "perex", image: "data.mainImage" });
    expect(JSON.stringify(map)).not.toContain("blurb");

    const second = await run({ ...start, ...pasted, EVENT_API_TOKEN: variant.token });
    expect(second.text).not.toContain("match no field");
    expect(second.text).not.toMatch(/Wire fields not used.*perex/);
    expect(second.text).toContain("No problems found.");
    expect(second.code).toBe(0);
  });

  it("should say which envelope entry to rewrite, and to what, where the record has a field of that name", async () => {
    // Details as { "data": { ..., "perex": ..., "data": { "host": ... } } }: inside, "data" is the record's own.
    const owned = await dialectPortal(
      {
        rename: { "event.summary": "perex", "event.organizer": "data.host" },
        detailsEnvelope: "data",
      },
      "bearer",
    );
    try {
      const start = apiEnv(owned, { EVENT_API_FIELD_MAP: '{"event":{"summary":"data.perex"}}' });
      const first = await run(start);
      expect(first.text).toContain(
        '  event.summary = "data.perex": the records have a "data" field of their own, which the path reads into; written as "perex" in the settings below.',
      );
      const pasted = envAfterBash(exportLines(first.text));
      expect(pasted.EVENT_API_FIELD_MAP).toBe('{"event":{"summary":"perex"}}');
      const second = await run({ ...start, ...pasted, EVENT_API_TOKEN: owned.token });
      expect(second.text).not.toContain("match no field");
      expect(second.text).toContain(
        '"summary": "Local growers, bakers and street food on the square."',
      );
      expect(second.code).toBe(0);
    } finally {
      await owned.close();
    }
  });

  it("should see into a details envelope it does not know and map the fields through it", async () => {
    const unknown = await dialectPortal({
      ...DIALECT_PRESETS.variant,
      detailsEnvelope: "eventDetail",
    });
    try {
      const start = apiEnv(unknown, { EVENT_API_AUTH: "header:X-Api-Key" });
      const first = await run(start);
      expect(first.code).toBe(1);
      expect(first.text).toContain("Event details: one bare record.");
      expect(first.text).toContain("event.summary <- eventDetail.perex");
      expect(first.text).toContain(
        "The details records add nothing to the list records, while they carry fields nothing reads: details.eventDetail.",
      );
      const second = await run({
        ...start,
        ...envAfterBash(exportLines(first.text)),
        EVENT_API_TOKEN: unknown.token,
      });
      expect(second.code).toBe(0);
      expect(second.text).toContain(
        `OK: ${DEMO_EVENTS} of ${DEMO_EVENTS} events can be published.`,
      );
    } finally {
      await unknown.close();
    }
  });

  it("should say of every record the build cuts or skips what it will do, and count only what it publishes", async () => {
    const dataset = createDemoDataset(new Date(NOW));
    const [broken, many, zoned] = dataset.events.filter((e) => e.calendarId === "community");
    if (!broken || !many || !zoned) throw new Error("the demo has community events");
    broken.title = "Broken \ud800 title";
    many.categories = Array.from({ length: 500 }, (_, i) => ({
      id: `c${i}`,
      name: `Category ${i}`,
    }));
    const hostile = await startPortal({ port: 0, now: NOW, dataset });
    // The details of one event give a zone no build can use: only its details say so.
    const { origin, close } = await serveOnLoopback(async (req, res) => {
      const answer = await fetch(`${hostile.origin}${req.url}`, {
        headers: { authorization: String(req.headers.authorization) },
      });
      const body = await answer.text();
      const edited = req.url?.includes(`/event/${zoned.id}/details`)
        ? body.replace(/"timeZone":"[^"]*"/, '"timeZone":"Mars/Base"')
        : body.replaceAll(hostile.origin, origin);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(edited);
    });
    try {
      const { code, text } = await run({
        ...apiEnv(hostile),
        EVENT_API_URL: `${origin}/v1`,
      });
      expect(text).toContain(
        `  - event "${broken.id}" in calendar "community": title: lone UTF-16 surrogates replaced by U+FFFD\n`,
      );
      expect(text).toContain(
        `  - event "${many.id}" in calendar "community": 500 categories, the first 30 are published\n`,
      );
      expect(text).toContain(
        `  - event "${zoned.id}" in calendar "community": skipped (unknown time zone "Mars/Base")\n`,
      );
      // Every listed event but the one whose details no build can read.
      const [, publishable, listed] =
        /^OK: (\d+) of (\d+) events can be published\.$/.exec(
          text.trim().split("\n").at(-1) ?? "",
        ) ?? [];
      expect(Number(listed)).toBeGreaterThan(100);
      expect(Number(publishable)).toBe(Number(listed) - 1);
      expect(code).toBe(0);
    } finally {
      await close();
      await hostile.close();
    }
  });
});

describe("checkApi with EVENT_SOURCES_FILE", () => {
  let variant: RunningPortal;
  const work = mkdtempSync(join(tmpdir(), "ecp-check-api-sources-"));
  const file = join(work, "sources.json");
  let feedUrl = "";
  beforeAll(async () => {
    variant = await dialectPortal("variant");
    const feed = await serveOnLoopback((_request, response) => {
      response.writeHead(200, { "content-type": "text/calendar" });
      response.end(
        [
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//Choir//Agenda//EN",
          "BEGIN:VEVENT",
          "UID:concert@choir.example",
          "DTSTAMP:20260101T000000Z",
          "SUMMARY:Spring concert",
          "DTSTART:20260501T180000Z",
          "END:VEVENT",
          "END:VCALENDAR",
          "",
        ].join("\r\n"),
      );
    });
    feedUrl = `${feed.origin}/agenda.ics`;
  });
  afterAll(async () => {
    await variant.close();
    rmSync(work, { recursive: true, force: true });
  });

  const env = (): NodeJS.ProcessEnv => ({
    EVENT_SOURCES_FILE: file,
    ARTS_TOKEN: portal.token,
    CLUBS_TOKEN: variant.token,
    EVENT_API_CACHE_DIR: join(work, "cache"),
    SITE_NOW: NOW,
    SITE_TIMEZONE: "Europe/Amsterdam",
  });
  const arts = () => ({
    id: "arts",
    name: "Arts Council",
    url: portal.url,
    tokenEnv: "ARTS_TOKEN",
  });
  const choir = () => ({ id: "choir", name: "City Choir", ics: feedUrl });

  it("should check every source, propose the block of the one that needs settings, and pass once it is pasted", async () => {
    const clubs = { id: "clubs", name: "Sports Clubs", url: variant.url, tokenEnv: "CLUBS_TOKEN" };
    writeFileSync(file, JSON.stringify([arts(), clubs, choir()]));
    const first = await run(env());
    expect(first.code).toBe(1);
    expect(first.text).toContain("Source arts (Arts Council):");
    expect(first.text).toContain("Source choir (City Choir):\nFeed: 1 dates to publish.");
    expect(first.text).toMatch(
      /^check-api: source clubs: the settings in effect do not work yet; with the settings above/m,
    );
    expect(first.text.trim().split("\n").at(-1)).toBe(
      "check-api: 1 of 3 sources do not work yet: clubs (see each one's lines above).",
    );
    expect(first.text).not.toContain(variant.token);
    expect(first.text).not.toContain(portal.token);
    // No env lines for a source: its block of the file.
    expect(first.text).not.toMatch(/^export /m);
    const block = first.text.match(/replace its block in .+ with:\n\n(\{\n[\s\S]*?\n\})\n/)?.[1];
    const proposed = JSON.parse(block ?? "null") as Record<string, unknown>;
    expect(proposed).toMatchObject({
      ...clubs,
      EVENT_API_AUTH: "header:X-Api-Key",
      EVENT_API_FIELD_MAP: { event: expect.objectContaining({ start: "dateFrom" }) },
    });

    writeFileSync(file, JSON.stringify([arts(), proposed, choir()]));
    const second = await run(env());
    expect(second.text.trim().split("\n").at(-1)).toBe("OK: every source works (3).");
    expect(second.code).toBe(0);
  });

  it("should name the source's own token variable when its token is refused", async () => {
    writeFileSync(file, JSON.stringify([arts()]));
    const { code, text } = await run({ ...env(), ARTS_TOKEN: "ecp_revoked_or_mistyped" });
    expect(code).toBe(1);
    expect(text).toMatch(
      /^check-api: source arts: The portal rejected the token .* for a new one \(ARTS_TOKEN\)\.$/m,
    );
    expect(text).not.toContain("EVENT_API_TOKEN");
  });

  it("should name the source of each problem, on one line", async () => {
    const stray = { id: "clubs", name: "Sports Clubs", url: portal.url, tokenEnv: "CLUBS_TOKEN" };
    writeFileSync(
      file,
      JSON.stringify([arts(), { ...stray, EVENT_API_CALENDARS: "sport,nowhere" }]),
    );
    const { code, text } = await run({ ...env(), CLUBS_TOKEN: portal.token });
    // As for one portal, a calendar it cannot see is a problem, not a failure.
    expect(code).toBe(0);
    expect(text).toContain(
      '  - source clubs: calendar "nowhere" (EVENT_API_CALENDARS) is not available to this organization',
    );
    expect(text.trim().split("\n").at(-1)).toBe("OK: every source works (2).");
  });
});
