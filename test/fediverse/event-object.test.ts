import { describe, expect, it } from "vitest";
import { accountOf } from "../../src/fediverse/account.ts";
import { eventObject } from "../../src/fediverse/event-object.ts";
import { calendarEvent } from "../helpers/events.ts";
import { TEST_SITE } from "../helpers/test-site.ts";

const account = accountOf(TEST_SITE, "events");

describe("eventObject", () => {
  it("should give a hybrid event its place with a postal address and coordinates, and its online address (FEP-8a8e)", () => {
    const object = eventObject(
      calendarEvent({
        id: "talk",
        calendarId: "community",
        title: "Talk",
        start: "2026-03-29T10:00:00+02:00",
        end: "2026-03-29T11:00:00+02:00",
        attendanceMode: "mixed",
        onlineUrl: "https://meet.example.org/talk",
        location: {
          name: "Library",
          address: {
            street: "Oosterdokskade 143",
            locality: "Amsterdam",
            region: null,
            postalCode: "1011 DL",
            country: "NL",
            formatted: "Oosterdokskade 143, 1011 DL Amsterdam, NL",
          },
          geo: { lat: 52.3756, lon: 4.9082 },
        },
        registrationUrl: "https://example.org/register",
      }),
      TEST_SITE,
      account,
    );
    expect(object).toMatchObject({
      type: "Event",
      startTime: "2026-03-29T10:00:00+02:00",
      endTime: "2026-03-29T11:00:00+02:00",
      timezone: "Europe/Amsterdam",
      eventStatus: "EventScheduled",
      url: "https://events.example.org/calendars/community/events/talk/",
      attributedTo: account.actor,
      joinMode: "external",
      externalParticipationUrl: "https://example.org/register",
      location: [
        {
          type: "Place",
          name: "Library",
          address: {
            type: "PostalAddress",
            streetAddress: "Oosterdokskade 143",
            addressLocality: "Amsterdam",
            postalCode: "1011 DL",
            addressCountry: "NL",
          },
          latitude: 52.3756,
          longitude: 4.9082,
        },
        { type: "VirtualLocation", url: "https://meet.example.org/talk" },
      ],
    });
    expect(object).not.toHaveProperty("displayEndTime");
  });

  it("should end an event the portal gives no end at the end of its day, and say the end is not to be shown", () => {
    const late = calendarEvent({
      id: "late",
      calendarId: "culture",
      title: "Late",
      start: "2026-03-28T20:00:00+01:00",
      end: "2026-03-28T20:00:00+01:00",
    });
    expect(eventObject(late, TEST_SITE, account)).toMatchObject({
      endTime: "2026-03-29T00:00:00+01:00",
      displayEndTime: false,
    });
    const nearMidnight = {
      ...late,
      start: "2026-03-28T23:30:00+01:00",
      end: "2026-03-28T23:30:00+01:00",
    };
    expect(eventObject(nearMidnight, TEST_SITE, account).endTime).toBe("2026-03-29T00:30:00+01:00");
  });
});
