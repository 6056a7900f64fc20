import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedStatePath } from "../../src/changes/state-location.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { hoursAfterNow, NOW } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, DEMO_SITE_URL } from "../helpers/demo-build.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { portalEvent } from "../helpers/events.ts";
import { readSiteFile } from "../helpers/files.ts";
import { icalJsEvents, nodeIcalEvents, unfoldedLines } from "../helpers/ics-readers.ts";
import { parseFeeds, parseIcs } from "../helpers/python-readers.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";
import { hasPythonModule } from "../helpers/system-packages.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/**
 * The reference portal changes between two builds, as an editor would change
 * it: one event moves by a day, one is cancelled, one postponed, one
 * reinstated, one deleted, one moved to another calendar, one added. What the
 * second build publishes is read back with independent parsers (ical.js,
 * node-ical, Python's icalendar and feedparser) and from the pages.
 */

const hasIcalendar = hasPythonModule("icalendar");
const hasFeedparser = hasPythonModule("feedparser");

/** The later builds of the day, an hour apart: what the second one finds is dated 13:00. */
const SECOND = hoursAfterNow(1);
const THIRD = hoursAfterNow(2);

const MOVED = { calendarId: "culture", id: "open-studio-20260326", title: "Open Studio Night" };
const CANCELLED = { calendarId: "culture", id: "jazz-boathouse-20260327" };
const POSTPONED = { calendarId: "sport", id: "cycling-tour-20260426" };
const REINSTATED = { calendarId: "culture", id: "poetry-evening-20260416" };
const DELETED = { calendarId: "community", id: "accessibility-webinar-20260422" };
const SWITCHED = { calendarId: "community", id: "volunteer-drinks-20260403", to: "city" };
const ADDED = { calendarId: "sport", id: "added-by-test", title: "Extra Saturday Run" };

/**
 * The demo's events of March and April: those the editor changes and their
 * neighbours in every feed, calendar and list they are in. The other months
 * would only make each of the many builds here slower.
 */
const PORTAL = demoPart(startingBetween("2026-03-01", "2026-05-01"));

const host = new URL(DEMO_SITE_URL).host;
const uidOf = (calendarId: string, id: string) => `${calendarId}.${id}@${host}`;
const pageUrl = (calendarId: string, id: string) => DEMO_SITE_URL + paths.event(calendarId, id);
const pageFile = (calendarId: string, id: string) =>
  `${paths.event(calendarId, id).slice(1)}index.html`;

interface Vevent {
  readonly uid: string;
  readonly sequence: number;
  readonly status: string;
  readonly summary: string;
  readonly start: string;
}

/** Every VEVENT of a calendar file, as ical.js reads it. */
function vevents(dir: string, file: string): Vevent[] {
  return icalJsEvents(readSiteFile(dir, file)).map((event) => ({
    uid: event.uid,
    sequence: event.sequence,
    status: String(event.component.getFirstPropertyValue("status")),
    summary: event.summary,
    start: event.startDate.toJSDate().toISOString(),
  }));
}

const veventOf = (dir: string, file: string, uid: string) =>
  vevents(dir, file).filter((event) => event.uid === uid);

interface JsonFeedItem {
  readonly id: string;
  readonly url: string;
  readonly title: string;
  readonly date_modified?: string;
  readonly date_published?: string;
}

const jsonFeedItems = (dir: string, file: string): JsonFeedItem[] =>
  (JSON.parse(readSiteFile(dir, file)) as { items: JsonFeedItem[] }).items;

function jsonLd(dir: string, file: string): Record<string, unknown> | null {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(
    readSiteFile(dir, file),
  );
  return match?.[1] ? (JSON.parse(match[1]) as Record<string, unknown>) : null;
}

interface PublicEvent {
  readonly id: string;
  readonly status: string;
  readonly start: string;
  readonly newDate: boolean;
  readonly previousStarts: readonly string[];
  readonly sequence: number;
  readonly uid: string;
}

const publicEvents = (dir: string, calendarId: string): PublicEvent[] =>
  (
    JSON.parse(readSiteFile(dir, `api/calendars/${calendarId}/events.json`)) as {
      events: PublicEvent[];
    }
  ).events;

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("changes between two builds", () => {
  let work: string;
  let output: string;
  let cacheDir: string;
  let portal: RunningPortal;
  let first: BuiltSite;
  let second: BuiltSite;
  let third: BuiltSite;
  /** Copies of the published site after the first and the second build. */
  let before: string;
  let after: string;
  // What changes reach, not the pictures links share as: without share cards.
  const api = () => ({
    EVENT_API_URL: portal.url,
    EVENT_API_TOKEN: portal.token,
    SHARE_CARDS: "off",
  });
  const build = (now: string, env: Record<string, string> = {}, dir = output) =>
    buildSite({ ...api(), EVENT_API_CACHE_DIR: cacheDir, SITE_NOW: now, ...env }, dir);
  /** Where the builds into `output` keep what they published. */
  const statePath = () => publishedStatePath(cacheDir, output, DEMO_SITE_URL);
  const ok = (site: BuiltSite) => {
    if (site.status !== 0) throw new Error(`build failed:\n${site.log}`);
    return site;
  };

  beforeAll(async () => {
    work = tempDir("ecp-changes-");
    output = join(work, "out", "_site");
    cacheDir = join(work, "cache");
    mkdirSync(join(work, "out"));
    portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset: PORTAL });
    first = ok(await build(NOW));
    before = join(work, "before");
    cpSync(output, before, { recursive: true });

    const moved = portal.updateEvent(MOVED.calendarId, MOVED.id, {
      start: "2026-03-27T19:30:00+01:00",
      end: "2026-03-27T22:00:00+01:00",
    });
    expect(moved.title).toBe(MOVED.title);
    portal.updateEvent(CANCELLED.calendarId, CANCELLED.id, { status: "cancelled" });
    portal.updateEvent(POSTPONED.calendarId, POSTPONED.id, { status: "postponed" });
    portal.updateEvent(REINSTATED.calendarId, REINSTATED.id, { status: "scheduled" });
    portal.deleteEvent(DELETED.calendarId, DELETED.id);
    portal.moveEvent(SWITCHED.calendarId, SWITCHED.id, SWITCHED.to);
    portal.addEvent(
      portalEvent({
        id: ADDED.id,
        calendarId: ADDED.calendarId,
        title: ADDED.title,
        start: "2026-03-28T09:00:00+01:00",
        end: "2026-03-28T10:00:00+01:00",
        categories: [{ id: "sport", name: "Sport" }],
      }),
    );
    second = ok(await build(SECOND));
    after = join(work, "after");
    cpSync(output, after, { recursive: true });
    third = ok(await build(THIRD));
  });

  afterAll(async () => {
    await portal?.close();
  });

  it("should list what changed since the last publish in the build report", () => {
    expect(first.log).toMatch(/previous state: none \(.*\); no changes known/);
    expect(first.stdout).toContain("changes    none known (no previous state to compare with)");
    expect(second.log).toContain(`previous state: ${statePath()} (`);
    const report = second.stdout.slice(second.stdout.indexOf("Build report"));
    expect(report).toContain("changes    since the last publish (2026-03-20 12:00 UTC)");
    expect(report).toMatch(/^ {4}added {6}1 {3}Extra Saturday Run$/m);
    expect(report).toMatch(/^ {4}moved {6}2 {3}.*Volunteer Drinks \(to calendar "City Events"\)/m);
    expect(report).toMatch(
      /Open Studio Night \(new date Fri 27 Mar 2026 19:30, was Thu 26 Mar 2026 19:30\)/,
    );
    expect(report).toMatch(/^ {4}cancelled {2}1 {3}Jazz at the Boathouse$/m);
    expect(report).toMatch(/^ {4}deleted {4}1 {3}Web Accessibility for Volunteer Websites$/m);
    expect(report).toMatch(/^ {4}postponed {2}1 {3}Cycling Tour along the Amstel$/m);
    expect(report).toMatch(/^ {4}reinstated 1 {3}Poetry Evening: Voices of the Amstel$/m);
    expect(report).toMatch(/^ {4}changed {4}0$/m);

    // From the unchanged portal an hour later: nothing to render, and the report says why.
    const unchanged = third.stdout.slice(third.stdout.indexOf("Build report"));
    expect(unchanged).toMatch(
      /^ {2}changes {4}none since the last publish \(2026-03-20 13:00 UTC\): the portal's data, the settings and the code are as it recorded them, and nothing date-relative changes before 2026-03-2\d \d\d:\d\d:\d\d UTC; nothing rendered, its files kept$/m,
    );
    expect(unchanged).toMatch(
      /^ {4}changed {2}0 new, 1 changed, 0 removed since the last publish/m,
    );
  });

  it("should keep a deleted event in every calendar file it was in, cancelled, with a higher SEQUENCE", () => {
    const uid = uidOf(DELETED.calendarId, DELETED.id);
    const files = [
      "calendar.ics",
      "calendars/community/calendar.ics",
      "categories/learning/calendar.ics",
      "categories/technology/calendar.ics",
      "calendars/community/categories/learning/calendar.ics",
    ];
    for (const file of files) {
      const [was] = veventOf(before, file, uid);
      const [now] = veventOf(after, file, uid);
      expect(was, file).toMatchObject({ status: "CONFIRMED" });
      expect(now, file).toMatchObject({
        status: "CANCELLED",
        summary: "Cancelled: Web Accessibility for Volunteer Websites",
        start: was?.start,
      });
      expect(now?.sequence, file).toBe((was?.sequence ?? 0) + 1);
      const viaNode = nodeIcalEvents(readSiteFile(after, file)).find((event) => event.uid === uid);
      expect(viaNode?.status, file).toBe("CANCELLED");
      // Unchanged in the next build: the same bytes for the same news.
      expect(veventOf(join(output), file, uid), file).toEqual([now]);
    }
    // The download says so too, and the page.
    expect(
      veventOf(after, `${paths.event(DELETED.calendarId, DELETED.id).slice(1)}event.ics`, uid),
    ).toMatchObject([
      { status: "CANCELLED", sequence: veventOf(after, "calendar.ics", uid)[0]?.sequence },
    ]);
    const page = readSiteFile(after, pageFile(DELETED.calendarId, DELETED.id));
    expect(page).toContain("This event has been cancelled.");
    expect(jsonLd(after, pageFile(DELETED.calendarId, DELETED.id))).toMatchObject({
      eventStatus: "https://schema.org/EventCancelled",
    });
  });

  it("should offer Add to calendar only while an event is on: not once cancelled, deleted or moved away", () => {
    /** The page's "Add to calendar" links: its event.ics, Google's and Outlook's templates. */
    const addLinks = (dir: string, calendarId: string, id: string) => {
      const html = readSiteFile(dir, pageFile(calendarId, id));
      return {
        section: html.includes('<section class="add-to-calendar"'),
        ics: html.includes(`href="${paths.event(calendarId, id)}event.ics"`),
        google: html.includes("https://calendar.google.com/calendar/render?action=TEMPLATE"),
        outlook: html.includes("https://outlook.live.com/calendar/0/deeplink/compose"),
      };
    };
    const offered = { section: true, ics: true, google: true, outlook: true };
    const none = { section: false, ics: false, google: false, outlook: false };
    for (const { calendarId, id } of [CANCELLED, DELETED, SWITCHED]) {
      expect(addLinks(before, calendarId, id), id).toEqual(offered);
      expect(addLinks(after, calendarId, id), id).toEqual(none);
    }
    // Postponed, or back on after a postponement: offered (it may yet take place, or will).
    for (const { calendarId, id } of [POSTPONED, REINSTATED]) {
      expect(addLinks(after, calendarId, id), id).toEqual(offered);
    }
    // The moved event offers it at its new address; the deleted one's pages say why there is none.
    expect(addLinks(after, SWITCHED.to, SWITCHED.id)).toEqual(offered);
    expect(readSiteFile(after, pageFile(DELETED.calendarId, DELETED.id))).toContain(
      "This event has been cancelled.",
    );
    // Their downloads stay, carrying the cancellation to those who added them before.
    for (const { calendarId, id } of [CANCELLED, DELETED]) {
      const file = `${paths.event(calendarId, id).slice(1)}event.ics`;
      expect(veventOf(after, file, uidOf(calendarId, id)), id).toMatchObject([
        { status: "CANCELLED" },
      ]);
    }
  });

  it("should take a deleted event out of lists, the public JSON and the widget", () => {
    const link = paths.event(DELETED.calendarId, DELETED.id);
    expect(readSiteFile(before, "calendars/community/index.html")).toContain(link);
    for (const file of [
      "calendars/community/index.html",
      "index.html",
      "embed/community/index.html",
    ]) {
      expect(readSiteFile(after, file), file).not.toContain(link);
    }
    expect(publicEvents(after, "community").map((event) => event.id)).not.toContain(DELETED.id);
    const changes = JSON.parse(readSiteFile(after, "api/changes.json")) as {
      removed: { id: string; reason: { kind: string }; sequence: number }[];
    };
    expect(changes.removed.find((event) => event.id === DELETED.id)).toMatchObject({
      reason: { kind: "deleted" },
    });
  });

  it.skipIf(!hasIcalendar)(
    "should publish calendar files Python's icalendar reads without errors",
    () => {
      const files = [
        "calendar.ics",
        "calendars/community/calendar.ics",
        "calendars/city/calendar.ics",
      ];
      const parsed = parseIcs(files.map((file) => join(after, file)));
      for (const calendar of parsed) expect(calendar.errors, calendar.path).toEqual([]);
      const site = parsed[0]?.events ?? [];
      expect(
        site.find((event) => event.uid === uidOf(DELETED.calendarId, DELETED.id)),
      ).toMatchObject({
        status: "CANCELLED",
      });
      expect(
        site.find((event) => event.uid === uidOf(CANCELLED.calendarId, CANCELLED.id)),
      ).toMatchObject({
        status: "CANCELLED",
      });
      const moved = site.find((event) => event.uid === uidOf(MOVED.calendarId, MOVED.id));
      expect(moved?.start).toEqual({ utc: "2026-03-27T18:30:00Z", tzid: "Europe/Amsterdam" });
    },
  );

  it("should treat a move to another calendar as a move: same UID, no cancellation where it still is", () => {
    const oldUid = uidOf(SWITCHED.calendarId, SWITCHED.id);
    const [was] = veventOf(before, "calendar.ics", oldUid);
    // The site-wide file has it once, under the UID subscribers know, still on.
    const site = vevents(after, "calendar.ics").filter((event) => event.uid === oldUid);
    expect(site).toHaveLength(1);
    expect(site[0]).toMatchObject({ status: "CONFIRMED", start: was?.start });
    expect(site[0]?.sequence).toBeGreaterThan(was?.sequence ?? 0);
    expect(vevents(after, "calendar.ics").map((event) => event.uid)).not.toContain(
      uidOf(SWITCHED.to, SWITCHED.id),
    );
    // In its new calendar under the same UID; in the old one marked as moved, for that calendar's subscribers.
    expect(veventOf(after, "calendars/city/calendar.ics", oldUid)).toMatchObject([
      { status: "CONFIRMED" },
    ]);
    expect(veventOf(after, "calendars/community/calendar.ics", oldUid)).toMatchObject([
      { status: "CANCELLED", summary: "Moved to City Events: Volunteer Drinks" },
    ]);
    expect(publicEvents(after, SWITCHED.to).find((event) => event.id === SWITCHED.id)?.uid).toBe(
      oldUid,
    );
    // The old page points to the new one; no feed announces a cancellation.
    const oldPage = readSiteFile(after, pageFile(SWITCHED.calendarId, SWITCHED.id));
    expect(oldPage).toContain("This event has moved to the calendar City Events.");
    expect(oldPage).toContain(`href="${paths.event(SWITCHED.to, SWITCHED.id)}"`);
    expect(oldPage).toContain(`<link rel="canonical" href="${pageUrl(SWITCHED.to, SWITCHED.id)}">`);
    expect(existsSync(join(after, pageFile(SWITCHED.to, SWITCHED.id)))).toBe(true);
    const sitemap = readSiteFile(after, "sitemap.xml");
    expect(sitemap).toContain(`<loc>${pageUrl(SWITCHED.to, SWITCHED.id)}</loc>`);
    expect(sitemap).not.toContain(`<loc>${pageUrl(SWITCHED.calendarId, SWITCHED.id)}</loc>`);
    expect(sitemap).toContain(`<loc>${pageUrl(DELETED.calendarId, DELETED.id)}</loc>`);
    const ids = jsonFeedItems(after, "feed.json").map((item) => item.id);
    expect(ids.filter((id) => id.includes(SWITCHED.id))).toEqual([
      pageUrl(SWITCHED.to, SWITCHED.id),
    ]);
  });

  it("should announce moves, cancellations, postponements and reinstatements as new feed items dated at the change", () => {
    const items = jsonFeedItems(after, "feed.json");
    const announced = (calendarId: string, id: string, kind: string) =>
      items.find((item) => item.id === `${pageUrl(calendarId, id)}#${kind}-20260320T130000Z`);
    const moved = announced(MOVED.calendarId, MOVED.id, "moved");
    expect(moved?.title).toBe(
      "New date: Open Studio Night, now Friday 27 March 19:30 (was Thursday 26 March)",
    );
    expect(moved?.date_published).toBe("2026-03-20T13:00:00.000Z");
    expect(announced(CANCELLED.calendarId, CANCELLED.id, "cancelled")?.title).toBe(
      "Cancelled: Jazz at the Boathouse (Friday 27 March 20:30)",
    );
    expect(announced(DELETED.calendarId, DELETED.id, "cancelled")?.title).toMatch(
      /^Cancelled: Web Accessibility for Volunteer Websites \(Wednesday 22 April 16:00\)$/,
    );
    expect(announced(POSTPONED.calendarId, POSTPONED.id, "postponed")?.title).toMatch(
      /^Postponed: Cycling Tour along the Amstel/,
    );
    expect(announced(REINSTATED.calendarId, REINSTATED.id, "reinstated")?.title).toMatch(
      /^Back on: Poetry Evening: Voices of the Amstel, Thursday 16 April 20:00$/,
    );
    // The events' own items stay, updated; a deleted event's says it is cancelled.
    const own = items.find((item) => item.id === pageUrl(MOVED.calendarId, MOVED.id));
    expect(own?.title).toBe("Fri 27 Mar 2026 · Open Studio Night");
    expect(items.find((item) => item.id === pageUrl(DELETED.calendarId, DELETED.id))?.title).toBe(
      "Wed 22 Apr 2026 · Cancelled: Web Accessibility for Volunteer Websites",
    );
    // Nothing was announced the first time, and the announcements stay in the next build.
    expect(jsonFeedItems(before, "feed.json").filter((item) => item.id.includes("#"))).toEqual([]);
    const later = jsonFeedItems(output, "feed.json").filter((item) => item.id.includes("#"));
    expect(later.map((item) => [item.id, item.date_published])).toEqual(
      items.filter((item) => item.id.includes("#")).map((item) => [item.id, item.date_published]),
    );
    // In the feeds of the event's calendar and categories, not in others.
    expect(jsonFeedItems(after, "calendars/culture/feed.json").map((item) => item.id)).toContain(
      moved?.id,
    );
    expect(jsonFeedItems(after, "categories/arts/feed.json").map((item) => item.id)).toContain(
      moved?.id,
    );
    expect(jsonFeedItems(after, "calendars/sport/feed.json").map((item) => item.id)).not.toContain(
      moved?.id,
    );
  });

  it.skipIf(!hasFeedparser)(
    "should give RSS and Atom readers the announcements as new entries",
    () => {
      const [rss, atom] = parseFeeds([join(after, "feed.xml"), join(after, "atom.xml")]);
      for (const feed of [rss, atom]) {
        expect(feed?.bozo, feed?.bozoException).toBe(false);
        const entry = feed?.entries.find((e) => e.id.endsWith("#moved-20260320T130000Z"));
        expect(entry?.title).toBe(
          "New date: Open Studio Night, now Friday 27 March 19:30 (was Thursday 26 March)",
        );
        expect(entry?.updated).toBe("2026-03-20T13:00:00Z");
        expect(entry?.link).toBe(`${pageUrl(MOVED.calendarId, MOVED.id)}#change`);
        // The event's own entry, by its page URL, is still there.
        expect(feed?.entries.some((e) => e.id === pageUrl(MOVED.calendarId, MOVED.id))).toBe(true);
      }
      expect(rss?.entries.find((e) => e.id.endsWith("#moved-20260320T130000Z"))?.guidIsLink).toBe(
        false,
      );
    },
  );

  it("should mark a new date in JSON-LD, on the page, in lists, in the widget and in the public JSON", () => {
    const file = pageFile(MOVED.calendarId, MOVED.id);
    expect(jsonLd(after, file)).toMatchObject({
      eventStatus: "https://schema.org/EventRescheduled",
      startDate: "2026-03-27T19:30:00+01:00",
      previousStartDate: "2026-03-26T19:30:00+01:00",
    });
    expect(jsonLd(before, file)).toMatchObject({
      eventStatus: "https://schema.org/EventScheduled",
    });
    expect(jsonLd(before, file)).not.toHaveProperty("previousStartDate");
    expect(jsonLd(after, pageFile(POSTPONED.calendarId, POSTPONED.id))).toMatchObject({
      eventStatus: "https://schema.org/EventPostponed",
    });
    const badge = '<span class="badge badge-new-date">New date</span>';
    expect(readSiteFile(after, file)).toContain(badge);
    expect(readSiteFile(after, file)).toMatch(/this event was moved from 26 March 2026 at 19:30/);
    const row = (html: string) =>
      /<li class="event-row[^"]*">(?:(?!<\/li>).)*Open Studio Night(?:(?!<\/li>).)*<\/li>/s.exec(
        html,
      )?.[0] ?? "";
    expect(row(readSiteFile(after, "calendars/culture/index.html"))).toContain(badge);
    expect(row(readSiteFile(before, "calendars/culture/index.html"))).not.toContain(
      "badge-new-date",
    );
    expect(row(readSiteFile(after, "calendars/culture/index.html"))).not.toBe("");
    expect(readSiteFile(after, "embed/culture/index.html")).toMatch(
      /Open Studio Night<\/span> <span class="ecp-badge ecp-badge--new-date">New date<\/span>/,
    );
    expect(publicEvents(after, "culture").find((event) => event.id === MOVED.id)).toMatchObject({
      newDate: true,
      previousStarts: ["2026-03-26T19:30:00+01:00"],
    });
    expect(publicEvents(after, "culture").find((event) => event.id === CANCELLED.id)).toMatchObject(
      {
        newDate: false,
        previousStarts: [],
      },
    );
  });

  it("should never lower an event's SEQUENCE, and keep each unchanged one as the portal gives it", () => {
    const site = (dir: string) => new Map(vevents(dir, "calendar.ics").map((e) => [e.uid, e]));
    const was = site(before);
    const now = site(after);
    for (const [uid, event] of now) {
      const earlier = was.get(uid);
      if (earlier) expect(event.sequence, uid).toBeGreaterThanOrEqual(earlier.sequence);
    }
    for (const id of [MOVED, CANCELLED, POSTPONED, REINSTATED]) {
      const uid = uidOf(id.calendarId, id.id);
      expect(now.get(uid)?.sequence, uid).toBeGreaterThan(was.get(uid)?.sequence ?? 0);
    }
    expect(now.get(uidOf(ADDED.calendarId, ADDED.id))).toMatchObject({ sequence: 1 });
  });

  it("should keep the published state when a build fails", async () => {
    const state = statePath();
    const kept = sha(state);
    const failed = await build(hoursAfterNow(3), { EVENT_API_TOKEN: "wrong" });
    expect(failed.status).toBe(1);
    expect(sha(state)).toBe(kept);
  });

  it("should read the previous state back from the live site's public JSON when the cache has none", async () => {
    let live: RunningServer | undefined;
    try {
      live = await startStaticServer();
      live.setRoot(output);
      const fresh = join(work, "fresh-cache");
      const elsewhere = join(work, "fresh", "_site");
      mkdirSync(join(work, "fresh"));
      const site = ok(
        await build(
          hoursAfterNow(3),
          {
            EVENT_API_CACHE_DIR: fresh,
            PREVIOUS_MANIFEST_URL: `${live.origin}/api/manifest.json`,
          },
          elsewhere,
        ),
      );
      expect(site.log).toContain(`previous state: ${live.origin}/api/ (`);
      expect(site.log).toMatch(/read from the live site\)/);
      const report = site.stdout.slice(site.stdout.indexOf("Build report"));
      for (const kind of ["added", "changed", "moved", "cancelled", "deleted"]) {
        expect(report).toMatch(new RegExp(`^ {4}${kind} +0$`, "m"));
      }
      // The deletion and the calendar move are still published as before.
      for (const file of ["calendar.ics", "calendars/community/calendar.ics"]) {
        for (const uid of [
          uidOf(DELETED.calendarId, DELETED.id),
          uidOf(SWITCHED.calendarId, SWITCHED.id),
        ]) {
          expect(veventOf(elsewhere, file, uid), `${file} ${uid}`).toEqual(
            veventOf(output, file, uid),
          );
        }
      }
      const announcements = (dir: string) =>
        jsonFeedItems(dir, "feed.json").filter((item) => item.id.includes("#"));
      expect(announcements(elsewhere)).toEqual(announcements(output));
    } finally {
      await live?.close();
    }
  });

  it("should read the output folder's public JSON when the state is corrupt, and know no changes with neither", async () => {
    const state = statePath();
    const deletedUid = uidOf(DELETED.calendarId, DELETED.id);
    const announcements = (dir: string) =>
      jsonFeedItems(dir, "feed.json")
        .filter((item) => item.id.includes("#"))
        .map((item) => item.id);
    const announcedBefore = announcements(output);
    expect(announcedBefore.length).toBeGreaterThan(0);
    portal.updateEvent(MOVED.calendarId, MOVED.id, {
      start: "2026-03-28T19:30:00+01:00",
      end: "2026-03-28T22:00:00+01:00",
    });

    writeFileSync(state, "{ this is not json");
    const corrupt = ok(await build(hoursAfterNow(4)));
    expect(corrupt.log).toContain(`previous state: ${state} is not JSON; ignored`);
    const fromOutput = corrupt.log
      .split("\n")
      .find((line) => line.startsWith(`previous state: ${join(output, "api/")} (`));
    expect(fromOutput).toMatch(
      /\(\d+ events, \d+ removed, \d+ announced, read from the output folder\)$/,
    );
    const report = corrupt.stdout.slice(corrupt.stdout.indexOf("Build report"));
    expect(report).toMatch(
      /^ {4}moved {6}1 {3}Open Studio Night \(new date Sat 28 Mar 2026 19:30, was Fri 27 Mar 2026 19:30\)$/m,
    );
    for (const kind of ["added", "changed", "cancelled", "deleted"]) {
      expect(report).toMatch(new RegExp(`^ {4}${kind} +0$`, "m"));
    }
    // The deletion is still published, the running announcements still run, and the new date is announced.
    expect(veventOf(output, "calendar.ics", deletedUid)).toMatchObject([{ status: "CANCELLED" }]);
    const announcedNow = announcements(output);
    expect(announcedNow).toEqual(expect.arrayContaining(announcedBefore));
    expect(announcedNow.length).toBe(announcedBefore.length + 1);
    // A good state was written again.
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({
      version: 1,
      siteUrl: DEMO_SITE_URL,
    });

    rmSync(state);
    rmSync(output, { recursive: true });
    portal.deleteEvent(ADDED.calendarId, ADDED.id);
    const missing = ok(await build(hoursAfterNow(5)));
    expect(missing.log).toContain(
      `previous state: none (no usable ${state} or ${join(output, "api/")}, and nothing published to read); no changes known`,
    );
    expect(missing.stdout).toContain("changes    none known");
    expect(veventOf(output, "calendar.ics", deletedUid)).toEqual([]);
    expect(veventOf(output, "calendar.ics", uidOf(ADDED.calendarId, ADDED.id))).toEqual([]);
    expect(announcements(output)).toEqual([]);
    // The only cancellations are those the portal has.
    const cancelledInPortal = new Set(
      ["community", "culture", "sport", "city"].flatMap((calendarId) =>
        publicEvents(output, calendarId)
          .filter((event) => event.status === "cancelled")
          .map((event) => event.uid),
      ),
    );
    const cancelledInFile = vevents(output, "calendar.ics")
      .filter((event) => event.status === "CANCELLED")
      .map((event) => event.uid);
    expect(cancelledInFile.length).toBeGreaterThan(0);
    for (const uid of cancelledInFile) expect(cancelledInPortal, uid).toContain(uid);
    expect(unfoldedLines(readSiteFile(output, "calendar.ics"))).not.toContain(
      "SUMMARY:Cancelled: Web Accessibility for Volunteer Websites",
    );
  });

  it("should keep a trial build's and a demo build's state apart from the site's", async () => {
    const state = statePath();
    const kept = sha(state);
    portal.updateEvent(POSTPONED.calendarId, POSTPONED.id, { status: "scheduled" });
    const trialDir = join(work, "trial", "_site");
    const demoDir = join(work, "demo", "_site");
    const demoUrl = "http://localhost:8080";
    mkdirSync(join(work, "trial"));
    mkdirSync(join(work, "demo"));

    // Same cache folder, same SITE_URL, another output folder: a trial.
    const trial = ok(await build(hoursAfterNow(6), {}, trialDir));
    expect(trial.log).toMatch(/previous state: none \(.*\); no changes known/);
    expect(trial.stdout).toContain("changes    none known");
    // Same cache folder, a local SITE_URL (the demo), another output folder.
    const demo = ok(await build(hoursAfterNow(6), { SITE_URL: demoUrl }, demoDir));
    expect(demo.log).toMatch(/previous state: none \(.*\); no changes known/);
    expect(sha(state)).toBe(kept);
    expect(existsSync(publishedStatePath(cacheDir, trialDir, DEMO_SITE_URL))).toBe(true);
    const demoState = publishedStatePath(cacheDir, demoDir, demoUrl);
    expect(existsSync(demoState)).toBe(true);

    // With its state corrupt, the demo (nothing published to fetch at a local SITE_URL) reads its output folder.
    writeFileSync(demoState, "[");
    const demoAgain = ok(await build(hoursAfterNow(6), { SITE_URL: demoUrl }, demoDir));
    expect(demoAgain.log).toContain(`previous state: ${join(demoDir, "api/")} (`);
    expect(demoAgain.log).toContain(", read from the output folder)");

    // The site's own next build still compares with what the site published.
    const site = ok(await build(hoursAfterNow(7)));
    expect(site.log).toContain(`previous state: ${state} (`);
    const report = site.stdout.slice(site.stdout.indexOf("Build report"));
    expect(report).toMatch(/^ {4}reinstated 1 {3}Cycling Tour along the Amstel$/m);
  });
});
