import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatasetEvent, type RunningPortal, startPortal } from "../../src/portal/index.ts";
import { NOW, NOW_MS } from "../helpers/clock.ts";
import { type BuiltSite, buildSite, DEMO_SITE_URL } from "../helpers/demo-build.ts";
import {
  demoEvents,
  eventUrl,
  expectedUrls,
  inFeedWindow,
  instants,
  isSingleEvent,
  isSubscription,
} from "../helpers/demo-expectations.ts";
import { demoPart, startingBetween } from "../helpers/demo-parts.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles, readSiteFile } from "../helpers/files.ts";
import {
  icalJsCalendar,
  icalJsEvents,
  nodeIcalEvents,
  unfoldedLines,
} from "../helpers/ics-readers.ts";
import { libicalErrors, parseIcs } from "../helpers/python-readers.ts";
import { hasLibical, hasPythonModule } from "../helpers/system-packages.ts";

const hasIcalendar = hasPythonModule("icalendar");

const events = demoEvents();
const byUrl = new Map<string, DatasetEvent>(events.map((event) => [eventUrl(event), event]));
const eventFolder = (url: string) => new URL(url).pathname.slice(1);

const icsFilesOf = async (dir: string) =>
  (await listFiles(dir)).filter((file) => file.endsWith(".ics"));

/** One VEVENT's facts a subscriber's calendar keys on, by event page URL. */
interface VeventFacts {
  readonly file: string;
  readonly uid: string;
  readonly url: string;
  readonly sequence: number;
  readonly lastModified: string;
  readonly dtstamp: string;
  readonly summary: string;
}

function veventFacts(dir: string, files: readonly string[]): VeventFacts[] {
  return files.flatMap((file) =>
    icalJsCalendar(readSiteFile(dir, file))
      .getAllSubcomponents("vevent")
      .map((component) => ({
        file,
        uid: String(component.getFirstPropertyValue("uid")),
        url: String(component.getFirstPropertyValue("url")),
        sequence: Number(component.getFirstPropertyValue("sequence")),
        lastModified: utcOf(component.getFirstPropertyValue("last-modified")),
        dtstamp: utcOf(component.getFirstPropertyValue("dtstamp")),
        summary: String(component.getFirstPropertyValue("summary")),
      })),
  );
}

function utcOf(value: unknown): string {
  return value instanceof ICAL.Time ? value.toJSDate().toISOString() : "";
}

/** Properties of the VCALENDAR itself (not of its components). */
function calendarProperties(text: string): string[] {
  return icalJsCalendar(text)
    .getAllProperties()
    .map((property) => property.name.toUpperCase());
}

describe("published calendars of the demo build", () => {
  let site: BuiltSite;
  let icsFiles: string[];
  let facts: VeventFacts[];

  beforeAll(async () => {
    site = await builtDemoSite();
    icsFiles = await icsFilesOf(site.dir);
    facts = veventFacts(site.dir, icsFiles);
  });

  it("should parse every .ics with ical.js and node-ical, agreeing on the events", () => {
    expect(icsFiles.length).toBeGreaterThan(events.length);
    for (const file of icsFiles) {
      const text = readSiteFile(site.dir, file);
      const viaIcalJs = icalJsEvents(text).map((event) => event.uid);
      const viaNode = nodeIcalEvents(text).map((event) => event.uid);
      expect(viaIcalJs.length, file).toBeGreaterThan(0);
      expect([...viaNode].sort(), file).toEqual([...viaIcalJs].sort());
    }
  });

  it.skipIf(!hasIcalendar)(
    "should parse every .ics with Python's icalendar without errors, agreeing on UIDs and times",
    () => {
      const parsed = parseIcs(icsFiles.map((file) => join(site.dir, file)));
      expect(parsed).toHaveLength(icsFiles.length);
      for (const [index, calendar] of parsed.entries()) {
        const file = icsFiles[index] ?? "";
        expect(calendar.errors, file).toEqual([]);
        const uids = facts.filter((fact) => fact.file === file).map((fact) => fact.uid);
        expect(calendar.events.map((event) => event.uid).sort(), file).toEqual(uids.sort());
        for (const vevent of calendar.events) {
          const event = byUrl.get(vevent.url ?? "");
          if (!event) throw new Error(`${file}: ${vevent.url} is no demo event`);
          const { start, end } = instants(event);
          if (event.allDay) {
            expect(vevent.start, vevent.url ?? "").toEqual({ date: event.start });
            expect(vevent.end, vevent.url ?? "").toEqual({ date: event.end });
          } else {
            const utc = (time: typeof start) => time.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
            expect(vevent.start, vevent.url ?? "").toEqual({
              utc: utc(start),
              tzid: event.timeZone,
            });
            expect(vevent.end, vevent.url ?? "").toEqual({ utc: utc(end), tzid: event.timeZone });
          }
        }
      }
    },
  );

  it.skipIf(!hasIcalendar)(
    "should name an ORGANIZER in every VEVENT: the portal's by email or web address, else the site, as Python's icalendar reads them",
    () => {
      const parsed = parseIcs(icsFiles.map((file) => join(site.dir, file)));
      const kinds = new Set<string>();
      for (const calendar of parsed) {
        for (const vevent of calendar.events) {
          const organizer = byUrl.get(vevent.url ?? "")?.organizer;
          // RFC 5546 3.2.1: METHOD:PUBLISH needs one; a CAL-ADDRESS is a URI (RFC 5545 3.3.3).
          const expected = organizer?.email
            ? { address: `mailto:${organizer.email}`, cn: organizer.name }
            : organizer?.url
              ? { address: organizer.url, cn: organizer.name }
              : { address: `${DEMO_SITE_URL}/`, cn: "Events" };
          expect(vevent.organizer, `${calendar.path} ${vevent.url}`).toEqual(expected);
          kinds.add(expected.address.split(":")[0] ?? "");
        }
      }
      // The demo's organizers have emails, one a web address only, and some events none.
      expect([...kinds].sort()).toEqual(["https", "mailto"]);
    },
  );

  it.runIf(hasLibical())(
    "should pass every .ics through libical's validator (RFC 5545, and RFC 5546 for METHOD:PUBLISH) without an error",
    () => {
      const errors = libicalErrors(icsFiles.map((file) => join(site.dir, file)));
      expect(Object.keys(errors)).toHaveLength(icsFiles.length);
      const failed = Object.entries(errors).filter(([, list]) => list.length > 0);
      expect(failed.map(([file, list]) => `${file}: ${list.join("; ")}`)).toEqual([]);
    },
  );

  it("should subscribe to exactly the events of the window, and offer every event as a download", async () => {
    for (const file of icsFiles.filter(isSubscription)) {
      const urls = facts.filter((fact) => fact.file === file).map((fact) => fact.url);
      expect([...urls].sort(), file).toEqual(expectedUrls(events, file));
    }
    const downloads = icsFiles.filter(isSingleEvent);
    expect(downloads.sort()).toEqual(
      events.map((event) => `${eventFolder(eventUrl(event))}event.ics`).sort(),
    );
    for (const file of downloads) {
      const inFile = facts.filter((fact) => fact.file === file);
      expect(inFile.map((fact) => `${eventFolder(fact.url)}event.ics`)).toEqual([file]);
    }
  });

  it("should give each event one UID in every file, and no two events the same UID", () => {
    const uidsByUrl = new Map<string, Set<string>>();
    const urlsByUid = new Map<string, Set<string>>();
    for (const { uid, url } of facts) {
      uidsByUrl.set(url, (uidsByUrl.get(url) ?? new Set()).add(uid));
      urlsByUid.set(uid, (urlsByUid.get(uid) ?? new Set()).add(url));
    }
    expect(uidsByUrl.size).toBe(events.length);
    expect([...uidsByUrl].filter(([, uids]) => uids.size > 1)).toEqual([]);
    expect([...urlsByUid].filter(([, urls]) => urls.size > 1)).toEqual([]);
    for (const file of icsFiles) {
      const uids = facts.filter((fact) => fact.file === file).map((fact) => fact.uid);
      expect(new Set(uids).size, file).toBe(uids.length);
    }
  });

  it("should stamp every event with the portal's update time and revision, never the build clock", () => {
    const buildClock = NOW_MS;
    const wrong = facts.flatMap((fact) => {
      const event = byUrl.get(fact.url);
      const updated = new Date(event?.updatedAt ?? 0).toISOString();
      const ok =
        fact.dtstamp === updated &&
        fact.lastModified === updated &&
        fact.sequence === event?.revision &&
        new Date(fact.dtstamp).getTime() < buildClock;
      return ok ? [] : [{ ...fact, portal: { updated, revision: event?.revision } }];
    });
    expect(wrong).toEqual([]);
  });

  it("should carry a VTIMEZONE for every TZID a file uses", () => {
    expect(readSiteFile(site.dir, "calendar.ics")).toContain(";TZID=");
    for (const file of icsFiles) {
      const lines = unfoldedLines(readSiteFile(site.dir, file));
      const used = new Set(
        lines.flatMap((line) => [...line.matchAll(/;TZID=([^;:]+)/g)].map((m) => m[1] ?? "")),
      );
      const defined = new Set(
        lines.filter((line) => line.startsWith("TZID:")).map((line) => line.slice(5)),
      );
      expect(
        [...used].filter((zone) => !defined.has(zone)),
        file,
      ).toEqual([]);
    }
  });

  it("should name subscriptions and give them a refresh interval, but not single-event files", () => {
    const subscriptionOnly = ["NAME", "X-WR-CALNAME", "REFRESH-INTERVAL", "X-PUBLISHED-TTL"];
    for (const file of icsFiles) {
      const text = readSiteFile(site.dir, file);
      const properties = calendarProperties(text);
      expect(properties, file).toEqual(expect.arrayContaining(["VERSION", "PRODID", "METHOD"]));
      expect(text, file).toContain("\r\nMETHOD:PUBLISH\r\n");
      if (isSubscription(file)) {
        expect(properties, file).toEqual(expect.arrayContaining(subscriptionOnly));
        // netlify.toml checks every minute; clients are asked for 15 at most (docs/deploy.md).
        expect(text, file).toContain("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n");
        expect(text, file).toContain("\r\nX-PUBLISHED-TTL:PT15M\r\n");
      } else {
        // Outlook desktop turns a named file into a new calendar (docs/feeds.md).
        const present = properties.filter(
          (name) => subscriptionOnly.includes(name) || name === "X-WR-CALDESC",
        );
        expect(present, file).toEqual([]);
      }
    }
  });

  it("should end every line with CRLF and fold lines at 75 octets", () => {
    for (const file of icsFiles) {
      const text = readSiteFile(site.dir, file);
      expect(text.endsWith("END:VCALENDAR\r\n"), file).toBe(true);
      const lines = text.slice(0, -2).split("\r\n");
      expect(
        lines.filter((line) => line.includes("\n") || line.includes("\r")),
        file,
      ).toEqual([]);
      expect(
        lines.filter((line) => Buffer.byteLength(line, "utf8") > 75),
        file,
      ).toEqual([]);
    }
  });

  it("should give the events that cross a clock change their real UTC instants in ical.js and node-ical", () => {
    const crossing = events.filter(
      (event) => !event.allDay && event.start.slice(-6) !== event.end.slice(-6),
    );
    expect(crossing.length).toBeGreaterThan(0);
    for (const event of crossing) {
      const url = eventUrl(event);
      const files = [
        `${eventFolder(url)}event.ics`,
        ...(inFeedWindow(event) ? ["calendar.ics"] : []),
      ];
      for (const file of files) {
        const text = readSiteFile(site.dir, file);
        const viaIcalJs = icalJsEvents(text).find(
          (vevent) => vevent.component.getFirstPropertyValue("url") === url,
        );
        expect(viaIcalJs?.startDate.zone?.tzid, file).toBe(event.timeZone);
        expect(viaIcalJs?.startDate.toJSDate().toISOString(), file).toBe(
          new Date(event.start).toISOString(),
        );
        expect(viaIcalJs?.endDate.toJSDate().toISOString(), file).toBe(
          new Date(event.end).toISOString(),
        );
        const viaNode = nodeIcalEvents(text).find((vevent) => vevent.uid === viaIcalJs?.uid);
        expect(viaNode?.start.toISOString(), file).toBe(new Date(event.start).toISOString());
        expect(viaNode?.end?.toISOString(), file).toBe(new Date(event.end).toISOString());
      }
    }
  });

  it("should give every timed event its portal instants in its own zone", () => {
    const wrong: string[] = [];
    for (const file of icsFiles) {
      for (const vevent of icalJsEvents(readSiteFile(site.dir, file))) {
        const event = byUrl.get(String(vevent.component.getFirstPropertyValue("url")));
        if (!event || event.allDay) continue;
        const got = [
          vevent.startDate.zone?.tzid,
          vevent.startDate.toJSDate().getTime(),
          vevent.endDate.toJSDate().getTime(),
        ];
        const want = [event.timeZone, Date.parse(event.start), Date.parse(event.end)];
        if (JSON.stringify(got) !== JSON.stringify(want))
          wrong.push(`${file} ${event.id}: ${JSON.stringify(got)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("should write all-day and multi-day events as DATE values with an exclusive end", () => {
    const allDay = events.filter((event) => event.allDay);
    const days = (event: DatasetEvent) =>
      instants(event).end.diff(instants(event).start, "days").days;
    expect(allDay.some((event) => days(event) === 1)).toBe(true);
    expect(allDay.some((event) => days(event) > 1)).toBe(true);
    for (const event of allDay) {
      const file = `${eventFolder(eventUrl(event))}event.ics`;
      const [vevent] = icalJsEvents(readSiteFile(site.dir, file));
      expect(vevent?.startDate.isDate, file).toBe(true);
      expect(vevent?.endDate.isDate, file).toBe(true);
      expect(vevent?.startDate.toString(), file).toBe(event.start);
      // RFC 5545 3.6.1: DTEND of a DATE event is the day after the last one.
      expect(vevent?.endDate.toString(), file).toBe(event.end);
      expect(vevent?.duration.toSeconds(), file).toBe(days(event) * 86_400);
    }
  });
});

describe("rebuilding after the portal changes an event", () => {
  const work = mkdtempSync(join(tmpdir(), "ecp-sequence-"));
  /** The demo's events of March and April: every calendar and kind of file, quicker to build twice. */
  const inPart = startingBetween("2026-03-01", "2026-05-01");
  const dataset = demoPart(inPart);
  const NEW_TITLE = "Lantern Parade on the Amstel (new route)";
  let portal: RunningPortal | undefined;
  let before: BuiltSite;
  let after: BuiltSite;
  let changed: DatasetEvent;
  let factsBefore: VeventFacts[];
  let factsAfter: VeventFacts[];

  beforeAll(async () => {
    portal = await startPortal({ host: "127.0.0.1", port: 0, now: NOW, dataset });
    const env = {
      EVENT_API_URL: portal.url,
      EVENT_API_TOKEN: portal.token,
      EVENT_API_CACHE_DIR: join(work, ".cache"),
      // What subscribers' calendars key on, not the pictures links share as: without share cards.
      SHARE_CARDS: "off",
    };
    before = await buildSite(env, join(work, "before"));
    const target = events.find(
      (event) =>
        inPart(event) &&
        event.status === "scheduled" &&
        !event.allDay &&
        Date.parse(event.start) > NOW_MS &&
        event.categories.length > 0,
    );
    if (!target) throw new Error("the demo dataset has no upcoming scheduled event");
    changed = portal.updateEvent(target.calendarId, target.id, { title: NEW_TITLE });
    after = await buildSite(env, join(work, "after"));
    expect(before.status, before.log).toBe(0);
    expect(after.status, after.log).toBe(0);
    factsBefore = veventFacts(before.dir, await icsFilesOf(before.dir));
    factsAfter = veventFacts(after.dir, await icsFilesOf(after.dir));
  });

  afterAll(async () => {
    await portal?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const key = (fact: VeventFacts) => `${fact.file} ${fact.url}`;

  it("should raise the changed event's SEQUENCE and LAST-MODIFIED and keep its UID in every file but its series'", () => {
    const url = eventUrl(changed);
    // A series the portal gives no id is its dates' shared title: a renamed date leaves it
    // (docs/site.md, "Series"), and stays in every other file it was in.
    const inSeries = (fact: VeventFacts) => /^calendars\/[^/]+\/series\//.test(fact.file);
    const before = factsBefore.filter((fact) => fact.url === url);
    expect(before.filter(inSeries)).toHaveLength(1);
    const old = before.filter((fact) => !inSeries(fact));
    const now = factsAfter.filter((fact) => fact.url === url);
    expect(now.map(key)).toEqual(old.map(key));
    expect(now.length).toBeGreaterThanOrEqual(3);
    for (const [index, fact] of now.entries()) {
      const previous = old[index] as VeventFacts;
      expect(fact.uid, fact.file).toBe(previous.uid);
      expect(fact.sequence, fact.file).toBeGreaterThan(previous.sequence);
      expect(Date.parse(fact.lastModified), fact.file).toBeGreaterThan(
        Date.parse(previous.lastModified),
      );
      expect(fact.summary, fact.file).toBe(NEW_TITLE);
    }
  });

  it("should leave every other event's UID, SEQUENCE and LAST-MODIFIED as they were", () => {
    const url = eventUrl(changed);
    const others = (facts: VeventFacts[]) =>
      facts
        .filter((fact) => fact.url !== url)
        .map(({ file, uid, url, sequence, lastModified }) => ({
          file,
          uid,
          url,
          sequence,
          lastModified,
        }));
    expect(others(factsAfter)).toEqual(others(factsBefore));
  });

  it("should show the new title in the event page and in every feed that lists the event", async () => {
    const url = eventUrl(changed);
    const page = readFileSync(join(after.dir, eventFolder(url), "index.html"), "utf8");
    expect(page).toContain(NEW_TITLE);
    const feeds = [
      "feed.json",
      `calendars/${changed.calendarId}/feed.json`,
      ...changed.categories.map((category) => `categories/${category.id}/feed.json`),
    ];
    for (const file of feeds) {
      const feed = JSON.parse(readSiteFile(after.dir, file)) as {
        items: { url: string; title: string }[];
      };
      expect(feed.items.find((item) => item.url === url)?.title, file).toContain(NEW_TITLE);
    }
    for (const file of ["feed.xml", "atom.xml"]) {
      expect(readSiteFile(after.dir, file), file).toContain(NEW_TITLE);
      expect(readSiteFile(before.dir, file), file).not.toContain(NEW_TITLE);
    }
  });

  it("should revalidate the cached portal answers instead of downloading everything again", () => {
    const notModified = Number(/(\d+) not modified/.exec(after.log)?.[1] ?? 0);
    expect(notModified, after.log).toBeGreaterThan(0);
  });

  it("should never write the API token into the site, the log or the fetch cache", async () => {
    const token = portal?.token ?? "";
    expect(token.length).toBeGreaterThan(10);
    expect(before.log + after.log).not.toContain(token);
    const leaks: string[] = [];
    for (const file of await listFiles(work)) {
      if (readFileSync(join(work, file)).includes(token)) leaks.push(file);
    }
    expect(leaks).toEqual([]);
  });
});
