import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNUSED_RECORD } from "../../src/api/response-cache.ts";
import { type DatasetEvent, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { buildWarningsPath } from "../../src/publish/build-warnings.ts";
import { NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, DEMO_SITE_URL } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { icalJsEvents } from "../helpers/ics-readers.ts";
import { jsonFeedProblems } from "../helpers/json-feed-spec.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * Two organizations in one site (docs/sources.md), each with its own
 * reference portal on loopback whose calendars are both called community,
 * culture and sport, built as `npm run build` builds: without share cards,
 * which this is not about, and with a few dozen events.
 */

const CALENDARS = "community,culture,sport";
const first = demoPart(startingBetween("2026-03-20", "2026-04-03"));
const second = demoPart(startingBetween("2026-04-03", "2026-04-17"));

/** An upcoming event of the first organization's community calendar: the second publishes it too. */
const shared = first.events.find(
  (event) => event.calendarId === "community" && Date.parse(event.start) > Date.parse(NOW),
) as DatasetEvent;

const calendarFile = (site: BuiltSite, segment = "") =>
  readFileSync(join(site.dir, segment ? `calendars/${segment}` : "", "calendar.ics"), "utf8");

const uids = (text: string) => icalJsEvents(text).map((event) => event.uid);

const uidOfShared = (site: BuiltSite) =>
  icalJsEvents(calendarFile(site)).find((event) => event.summary === shared.title)?.uid;

describe("a site of two organizations", () => {
  const work = tempDir("sources-build-");
  const output = join(work, "_site");
  const cacheDir = join(work, "cache");
  const file = join(work, "sources.json");
  let portals: RunningPortal[] = [];
  /** What the site of the first organization alone published: the UID of the shared event, its calendar's UIDs. */
  let aloneShared: string | undefined;
  let aloneCommunity: string[] = [];
  let both: BuiltSite;
  /** Whether the site of one source had an index of organizations, and its organization's page. */
  let aloneIndex = true;
  let aloneOrganization = false;

  const build = (sources: readonly object[]) => {
    writeFileSync(file, JSON.stringify(sources));
    const [one, two] = portals;
    return buildSite(
      {
        EVENT_API_URL: "",
        EVENT_SOURCES_FILE: file,
        EVENT_API_CACHE_DIR: cacheDir,
        EVENT_API_RETRIES: "1",
        EVENT_API_RETRY_MAX_WAIT: "100ms",
        ARTS_TOKEN: one?.token,
        CLUBS_TOKEN: two?.token,
        SHARE_CARDS: "off",
      },
      output,
    );
  };
  /** A source of the file: the organization's portal, its token in the variable named. */
  const portalSource = (id: string, name: string, index: number, tokenEnv: string) => () => ({
    id,
    name,
    url: portals[index]?.url,
    tokenEnv,
    EVENT_API_CALENDARS: CALENDARS,
  });
  const arts = portalSource("arts", "Arts Council", 0, "ARTS_TOKEN");
  const clubs = portalSource("clubs", "Sports Clubs", 1, "CLUBS_TOKEN");

  beforeAll(async () => {
    portals = await Promise.all(
      [first, second].map((dataset) =>
        startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset }),
      ),
    );
    // The second organization publishes the first one's event in its own culture calendar.
    portals[1]?.addEvent({ ...shared, id: "guest-evening", calendarId: "culture" });
    const alone = await build([arts()]);
    expect(alone.status, alone.log).toBe(0);
    aloneShared = uidOfShared(alone);
    aloneCommunity = uids(calendarFile(alone, "arts~community"));
    aloneIndex = existsSync(join(alone.dir, "organizations/index.html"));
    aloneOrganization = existsSync(join(alone.dir, "organizations/arts/index.html"));
    both = await build([arts(), clubs()]);
    expect(both.status, both.log).toBe(0);
  });

  afterAll(async () => {
    await portals[0]?.close();
  });

  it("should keep six calendars apart, each in its organization's namespace", () => {
    const calendars = JSON.parse(readFileSync(join(both.dir, "api/calendars.json"), "utf8")) as {
      calendars: { id: string }[];
    };
    expect(calendars.calendars.map((c) => c.id).sort()).toEqual([
      "arts~community",
      "arts~culture",
      "arts~sport",
      "clubs~community",
      "clubs~culture",
      "clubs~sport",
    ]);
    expect(calendarFile(both, "clubs~sport").length).toBeGreaterThan(0);
  });

  it("should count each organization's events in the manifest, for the shrink guard", () => {
    const manifest = JSON.parse(readFileSync(join(both.dir, "api/manifest.json"), "utf8")) as {
      calendars: { id: string; events: number }[];
      sources: { id: string; name: string; events: number }[];
    };
    const inSource = (id: string) =>
      manifest.calendars
        .filter((calendar) => calendar.id.startsWith(`${id}~`))
        .reduce((sum, calendar) => sum + calendar.events, 0);
    expect(manifest.sources).toEqual([
      { id: "arts", name: "Arts Council", events: inSource("arts") },
      { id: "clubs", name: "Sports Clubs", events: inSource("clubs") },
    ]);
    expect(inSource("clubs")).toBeGreaterThan(0);
  });

  it("should publish every event once, the shared one with the UID it had before", () => {
    const all = uids(calendarFile(both));
    expect(new Set(all).size).toBe(all.length);
    expect(
      icalJsEvents(calendarFile(both)).filter(
        (e) =>
          e.summary === shared.title &&
          e.startDate.toJSDate().getTime() === Date.parse(shared.start),
      ),
    ).toHaveLength(1);
    expect(aloneShared).toMatch(/^arts~community\./);
    expect(uidOfShared(both)).toBe(aloneShared);
    // Adding a source renames nothing of the first: its calendar's UIDs are as they were.
    expect(uids(calendarFile(both, "arts~community"))).toEqual(aloneCommunity);
  });

  it("should list the shared event in both organizations' calendars, under one UID", () => {
    expect(uids(calendarFile(both, "arts~community"))).toContain(aloneShared);
    expect(uids(calendarFile(both, "clubs~culture"))).toContain(aloneShared);
  });

  it("should name both organizers on the shared event's one page and in its structured data", () => {
    const page = readFileSync(
      join(both.dir, "calendars/arts~community/events", shared.id, "index.html"),
      "utf8",
    );
    const data = [...page.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)]
      .map((match) => JSON.parse(match[1] ?? "{}") as { "@type"?: string; organizer?: unknown })
      .find((item) => item["@type"] === "Event");
    expect(Array.isArray(data?.organizer) && data.organizer).toHaveLength(2);
    expect(page.match(/class="p-organizer h-card"/g)).toHaveLength(2);
  });

  it("should list what was merged in the report and build-warnings.json", () => {
    expect(both.stdout).toMatch(/merged: event "guest-evening" of calendar "clubs~culture"/);
    const kept = JSON.parse(
      readFileSync(buildWarningsPath(cacheDir, output, DEMO_SITE_URL), "utf8"),
    ) as { warnings: string[] };
    expect(kept.warnings).toContainEqual(
      expect.stringMatching(
        /^merged: event "guest-evening" of calendar "clubs~culture" \(source clubs\)/,
      ),
    );
  });

  it("should give each organization a page of its calendars, events and files, and an index of them", () => {
    expect(aloneOrganization).toBe(true);
    // One organization: its page, but no index of one.
    expect(aloneIndex).toBe(false);
    const page = readFileSync(join(both.dir, "organizations/clubs/index.html"), "utf8");
    expect(page).toContain("<h1>Sports Clubs</h1>");
    for (const calendar of ["clubs~community", "clubs~culture", "clubs~sport"]) {
      expect(page).toContain(`href="/calendars/${calendar}/"`);
    }
    expect(page).not.toContain('href="/calendars/arts~community/"');
    for (const file of ["feed.xml", "atom.xml", "feed.json", "calendar.ics"]) {
      expect(page).toContain(`/organizations/clubs/${file}`);
    }
    const index = readFileSync(join(both.dir, "organizations/index.html"), "utf8");
    expect(index).toContain('href="/organizations/arts/"');
    expect(index).toContain('href="/organizations/clubs/"');
    // Every page links the index: the site has several organizations.
    expect(readFileSync(join(both.dir, "index.html"), "utf8")).toContain('href="/organizations/"');
    // Search engines are told of them too.
    const sitemap = readFileSync(join(both.dir, "sitemap.xml"), "utf8");
    for (const path of ["organizations/", "organizations/arts/", "organizations/clubs/"]) {
      expect(sitemap).toContain(`<loc>${DEMO_SITE_URL}/${path}</loc>`);
    }
  });

  it("should put in an organization's calendar file and feed its events, the one it shares included", () => {
    const clubs = readFileSync(join(both.dir, "organizations/clubs/calendar.ics"), "utf8");
    const clubsUids = uids(clubs);
    expect(clubsUids).toContain(aloneShared);
    expect(new Set(clubsUids)).toEqual(
      new Set([
        ...uids(calendarFile(both, "clubs~community")),
        ...uids(calendarFile(both, "clubs~culture")),
        ...uids(calendarFile(both, "clubs~sport")),
      ]),
    );
    expect(uids(readFileSync(join(both.dir, "organizations/arts/calendar.ics"), "utf8"))).toEqual(
      expect.arrayContaining(aloneCommunity),
    );
    const feed = JSON.parse(readFileSync(join(both.dir, "organizations/clubs/feed.json"), "utf8"));
    expect(jsonFeedProblems(feed)).toEqual([]);
    expect((feed as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });

  it("should say on the shared event's page which organizations publish it, and in its public JSON", () => {
    const page = readFileSync(
      join(both.dir, "calendars/arts~community/events", shared.id, "index.html"),
      "utf8",
    );
    expect(page).toMatch(
      /<dt>Published by<\/dt>\s*<dd><a href="\/organizations\/arts\/"><bdi>Arts Council<\/bdi><\/a>, <a href="\/organizations\/clubs\/"><bdi>Sports Clubs<\/bdi><\/a><\/dd>/,
    );
    const events = JSON.parse(
      readFileSync(join(both.dir, "api/calendars/arts~community/events.json"), "utf8"),
    ) as { events: { id: string; sources: string[] }[] };
    expect(events.events.find((event) => event.id === shared.id)?.sources).toEqual([
      "arts",
      "clubs",
    ]);
    expect(events.events.filter((event) => event.id !== shared.id)[0]?.sources).toEqual(["arts"]);
  });

  it("should offer an organization filter beside the calendar filter in search", () => {
    const search = readFileSync(join(both.dir, "search/index.html"), "utf8");
    expect(search).toMatch(/<select id="search-organization" name="organization">/);
    expect(search).toContain('<option value="clubs">Sports Clubs</option>');
  });

  it("should build from a stopped organization's last good data, with a warning naming it", async () => {
    const before = uids(calendarFile(both, "clubs~sport"));
    // The response cache's entries: eleventy-fetch's files, by name.
    const cached = () =>
      readdirSync(cacheDir)
        .filter((name) => name.startsWith("eleventy-fetch-"))
        .sort();
    const cachedBefore = cached();
    // Every entry on record as unused for years: a build that prunes would remove them all.
    const unusedSince = Object.fromEntries(
      cachedBefore.filter((name) => !name.includes(".")).map((name) => [name, 0]),
    );
    writeFileSync(join(cacheDir, UNUSED_RECORD), JSON.stringify({ version: 1, unusedSince }));
    await portals[1]?.close();
    const after = await build([arts(), clubs()]);
    expect(after.status, after.log).toBe(0);
    // A source built from its last good data: the build prunes no source's answers.
    expect(cached()).toEqual(cachedBefore);
    expect(after.log).toMatch(
      /source clubs \(Sports Clubs\): .*; using its data from 2026-03-20T12:00:00\.000Z/,
    );
    expect(uids(calendarFile(after, "clubs~sport"))).toEqual(before);
    expect(uids(calendarFile(after, "arts~community"))).toEqual(aloneCommunity);
  });
});
