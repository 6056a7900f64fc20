import { describe, expect, it } from "vitest";
import type { EventActivity } from "../../src/changes/event-activity.ts";
import { accountOf } from "../../src/fediverse/account.ts";
import {
  OUTBOX_PAGE_SIZE,
  outboxKey,
  renderOutbox,
  renderOutboxPage,
} from "../../src/fediverse/outbox.ts";
import { NOW } from "../helpers/clock.ts";
import { calendarEvent } from "../helpers/events.ts";
import { TEST_SITE } from "../helpers/test-site.ts";

const account = accountOf(TEST_SITE, "events");
const event = calendarEvent({
  id: "gig",
  calendarId: "culture",
  title: "Gig",
  start: "2026-04-03T20:00:00+02:00",
  end: "2026-04-03T23:00:00+02:00",
  status: "cancelled",
});
const events = new Map([[outboxKey({ calendarId: "culture", eventId: "gig" }), event]]);
const activity = (kind: EventActivity["kind"], eventId: string, at = NOW): EventActivity => ({
  kind,
  calendarId: "culture",
  eventId,
  sequence: 2,
  at,
});
const page = (activities: EventActivity[], n: number) =>
  JSON.parse(renderOutboxPage(TEST_SITE, account, { activities, events }, n)) as {
    id: string;
    next?: string;
    prev?: string;
    orderedItems: Record<string, unknown>[];
  };

describe("outbox", () => {
  it("should carry an update with the event as published, and a deletion with its tombstone, under stable ids", () => {
    const { orderedItems } = page([activity("update", "gig"), activity("delete", "gone")], 1);
    const object = "https://events.example.org/ap/events/culture/gig.json";
    expect(orderedItems[0]).toMatchObject({
      id: `${object}#update-20260320T120000Z`,
      type: "Update",
      actor: account.actor,
      published: NOW,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      cc: [account.followers],
      object: { id: object, type: "Event", name: "Gig", eventStatus: "EventCancelled" },
    });
    expect(orderedItems[1]).toMatchObject({
      id: "https://events.example.org/ap/events/culture/gone.json#delete-20260320T120000Z",
      type: "Delete",
      object: {
        id: "https://events.example.org/ap/events/culture/gone.json",
        type: "Tombstone",
        formerType: "Event",
        deleted: NOW,
      },
    });
    // The same activity has the same id in a later build's outbox.
    expect(page([activity("create", "x"), activity("update", "gig")], 1).orderedItems[1]?.id).toBe(
      orderedItems[0]?.id,
    );
  });

  it("should page the activities, newest first, linking the pages", () => {
    const many = Array.from({ length: OUTBOX_PAGE_SIZE * 2 + 3 }, (_, n) =>
      activity("create", `e${n}`),
    );
    const collection = JSON.parse(renderOutbox(TEST_SITE, account, many.length));
    expect(collection).toMatchObject({
      id: account.outbox,
      type: "OrderedCollection",
      totalItems: 103,
      first: "https://events.example.org/ap/outbox/1.json",
      last: "https://events.example.org/ap/outbox/3.json",
    });
    const [first, second, third] = [1, 2, 3].map((n) => page(many, n));
    expect(first?.orderedItems).toHaveLength(OUTBOX_PAGE_SIZE);
    expect(first?.next).toBe(second?.id);
    expect(second?.prev).toBe(first?.id);
    expect(third?.orderedItems.map((item) => item.object)).toEqual([
      "https://events.example.org/ap/events/culture/e100.json",
      "https://events.example.org/ap/events/culture/e101.json",
      "https://events.example.org/ap/events/culture/e102.json",
    ]);
    expect(third?.next).toBeUndefined();
  });
});
