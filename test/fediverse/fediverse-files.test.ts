import { describe, expect, it } from "vitest";
import { EVENT_OBJECT_GROUP, fediverseFileGroups } from "../../src/fediverse/fediverse-files.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { FileGroup } from "../../src/render/file-group.ts";
import type { EventPage } from "../../src/site/views.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { calendarEvent } from "../helpers/events.ts";
import { siteWith } from "../helpers/test-site.ts";

const fediverse = { username: "events", publicKeyPem: "" };

const event = calendarEvent({
  id: "talk",
  calendarId: "community",
  title: "Talk",
  start: "2026-03-29T10:00:00+02:00",
  end: "2026-03-29T11:00:00+02:00",
});

/** The group of the event objects, for a site at `url`, over one page of `shown`. */
function objects(shown: CalendarEvent, url = "https://events.example.org"): FileGroup {
  const page: EventPage = {
    event: shown,
    calendar: fixtureSnapshot.calendars[0] as EventPage["calendar"],
    path: "/calendars/community/events/talk/",
    isPast: false,
  };
  const groups = fediverseFileGroups(siteWith({ url, fediverse }), {
    pages: [page],
    activities: [],
    icon: null,
    shardKey: (e) => e.id,
  });
  const group = groups.find((g) => g.name === EVENT_OBJECT_GROUP);
  if (!group?.inputs) throw new Error("the event objects name no inputs");
  return group;
}

/** The object's bytes and its inputs, as the writer asks for them. */
function made(shown: CalendarEvent, url?: string): { bytes: string; inputs: string } {
  const group = objects(shown, url);
  const [item] = group.items;
  return { bytes: String(group.render(item)), inputs: group.inputs?.(item) ?? "" };
}

describe("the fediverse's event objects", () => {
  it("should be kept by inputs that change whenever the object's bytes do", () => {
    const base = made(event);
    const changes = [
      made({ ...event, title: "Talk, moved indoors" }),
      made({ ...event, end: event.start }),
      // Removed from the portal: its object becomes a Tombstone.
      made({
        ...event,
        history: {
          uid: null,
          previousStarts: [],
          rescheduledAt: null,
          newDate: false,
          removed: { kind: "deleted" },
        },
        updatedAt: "2026-03-30T09:00:00Z",
      }),
      made(event, "https://example.com/events"),
    ];
    for (const changed of changes) {
      expect(changed.bytes).not.toBe(base.bytes);
      expect(changed.inputs).not.toBe(base.inputs);
    }
    // The same event, a new object of it (as each build reads it back): the same inputs.
    expect(made({ ...event })).toEqual(base);
  });
});
