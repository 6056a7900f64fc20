import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../src/model/types.ts";
import { addToCalendarLinks } from "../../src/outputs/ics-add-to-calendar.ts";
import { subscribeLinks } from "../../src/outputs/ics-subscribe.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

const event = (id: string): CalendarEvent => {
  const found = fixtureSnapshot.events.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no fixture event ${id}`);
  return found;
};
const pageOf = (e: CalendarEvent) =>
  `https://events.example.org/calendars/${e.calendarId}/events/${e.id}/`;
const params = (url: string) => new URL(url).searchParams;
/** A link's query as one object (each parameter appears once in these links). */
const query = (url: string | undefined) => Object.fromEntries(params(url ?? ""));

describe("ics-links", () => {
  it("should offer webcal, https, Google, ICSx5, Outlook.com, Microsoft 365 and Yahoo subscriptions", () => {
    const links = subscribeLinks(
      "https://events.example.org/calendars/culture/calendar.ics",
      "Culture & Co",
    );
    expect(links.https).toBe("https://events.example.org/calendars/culture/calendar.ics");
    expect(links.webcal).toBe("webcal://events.example.org/calendars/culture/calendar.ics");
    expect(params(links.google).get("cid")).toBe(links.webcal);
    expect(links.google.startsWith("https://calendar.google.com/calendar/render?cid=")).toBe(true);
    for (const [link, host] of [
      [links.outlook, "outlook.live.com"],
      [links.office365, "outlook.office.com"],
    ] as const) {
      const url = new URL(link);
      expect(url.host).toBe(host);
      expect(url.pathname).toBe("/calendar/0/addfromweb");
      // Outlook on the web subscribes to https URLs only.
      expect(url.searchParams.get("url")).toBe(links.https);
      expect(url.searchParams.get("name")).toBe("Culture & Co");
    }
    // ICSx5 registers for webcal: on Android; Yahoo takes the copied address on its own page.
    expect(links.icsx5).toBe(links.webcal);
    expect(new URL(links.yahoo).host).toBe("calendar.yahoo.com");
    expect(links.qrSvg).toMatch(/^<svg role="img" aria-label="Culture &amp; Co"/);
  });

  it("should give Google and Outlook the UTC instants of a timed event", () => {
    const walk = event("e-dst");
    const links = addToCalendarLinks(walk, pageOf(walk));
    expect(links).not.toBeNull();
    const google = params(links?.google ?? "");
    expect(google.get("action")).toBe("TEMPLATE");
    expect(google.get("text")).toBe("Night Walk Across the Clock Change");
    expect(google.get("dates")).toBe("20260329T003000Z/20260329T020000Z");
    expect(google.get("ctz")).toBe("Europe/Amsterdam");
    expect(google.get("location")).toBe("Vondelpark fountain, Vondelpark 1, 1071 AA Amsterdam, NL");
    expect(google.get("details")).toContain(pageOf(walk));

    expect(query(links?.outlook)).toMatchObject({
      rru: "addevent",
      startdt: "2026-03-29T00:30:00Z",
      enddt: "2026-03-29T02:00:00Z",
      allday: "false",
    });
    const yahoo = query(links?.yahoo);
    expect(yahoo).toMatchObject({
      v: "60",
      title: "Night Walk Across the Clock Change",
      st: "20260329T003000Z",
      et: "20260329T020000Z",
      in_loc: "Vondelpark fountain, Vondelpark 1, 1071 AA Amsterdam, NL",
    });
    expect(yahoo).not.toHaveProperty("dur");
    // Spaces as %20: Outlook shows a "+" literally.
    expect(links?.outlook).not.toContain("+");
    expect(links?.ics).toBe(`${pageOf(walk)}event.ics`);
  });

  it("should give all-day events dates with an exclusive end", () => {
    const studios = event("e-multiday");
    const links = addToCalendarLinks(studios, pageOf(studios));
    expect(params(links?.google ?? "").get("dates")).toBe("20260515/20260518");
    expect(query(links?.outlook)).toMatchObject({
      startdt: "2026-05-15",
      enddt: "2026-05-18",
      allday: "true",
    });
    // Yahoo: the first and the last day, marked as all day.
    expect(query(links?.yahoo)).toMatchObject({ st: "20260515", et: "20260517", dur: "allday" });
  });

  it("should mark cancelled events in the title and keep hostile text encoded", () => {
    const concert = event("e-cancelled");
    expect(params(addToCalendarLinks(concert, pageOf(concert))?.google ?? "").get("text")).toBe(
      "Cancelled: Harbour Concert",
    );
    const hostile = event("Weird/ID?<x>");
    const links = addToCalendarLinks(
      hostile,
      "https://events.example.org/calendars/culture/events/_57/",
    );
    expect(links?.google).not.toMatch(/[<>"\s]/);
    expect(params(links?.google ?? "").get("text")).toBe('<script>alert("x")</script> & "Quotes"');
  });

  it("should return null for an event whose times do not parse", () => {
    const broken = { ...event("e-dst"), start: "not a date" };
    expect(addToCalendarLinks(broken, pageOf(broken))).toBeNull();
  });
});
