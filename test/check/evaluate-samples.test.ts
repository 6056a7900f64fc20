import { describe, expect, it } from "vitest";
import { evaluateSamples } from "../../src/check/evaluate-samples.ts";
import { EMPTY_FIELD_MAP, parseFieldMap } from "../../src/model/field-map.ts";
import type { WireRecord } from "../../src/model/wire.ts";

const options = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };
const calendar: WireRecord = { id: "c", name: "Calendar" };
const listed: WireRecord = { id: "e1", title: "Talk", start: "2026-05-01T10:00:00+02:00" };

const samples = (details: WireRecord) => ({
  calendars: [{ record: calendar, events: [listed] }],
  details: [{ calendar: 0, listed, details }],
});

describe("evaluateSamples", () => {
  it("should pass a portal whose details hold the documented fields", () => {
    const result = evaluateSamples(
      samples({
        ...listed,
        summary: "Short",
        description: "<p>Long</p>",
        categories: ["Talks"],
        location: "Hall",
        organizer: "Club",
      }),
      options,
    );
    expect(result.failures).toEqual([]);
    expect(result.usable).toBe(1);
    expect(result.emptyOptional).toEqual(["onlineUrl", "image", "registrationUrl"]);
  });

  it("should pass a sparse portal that has nothing more to give", () => {
    const result = evaluateSamples(samples({ ...listed }), options);
    expect(result.failures).toEqual([]);
    expect(result.emptyOptional).toHaveLength(8);
  });

  it("should fail, naming the fields, when details carry fields nothing reads", () => {
    const result = evaluateSamples(
      samples({ ...listed, blurb: "Short", body2: "<p>Long</p>" }),
      options,
    );
    expect(result.failures).toEqual([
      "The details records add nothing to the list records, while they carry fields nothing reads: details.blurb, details.body2. Map them with EVENT_API_FIELD_MAP.",
      "Most optional event fields are empty in every sampled event (summary, description, location, onlineUrl, image, categories, organizer, registrationUrl), while the records carry fields nothing reads: details.blurb, details.body2. Map them with EVENT_API_FIELD_MAP.",
    ]);
  });

  it("should name unreadable events by the id the field map reads, else by their place in the list", () => {
    const result = evaluateSamples(
      {
        calendars: [
          {
            record: calendar,
            events: [
              { ref: "talk-7", title: "Talk", when: "2026-05-01" },
              { ref: 1042, title: "Walk", when: "2026-05-02" },
              { title: "Nameless", when: "2026-05-03" },
            ],
          },
        ],
        details: [],
      },
      { ...options, fieldMap: parseFieldMap({ event: { id: "ref" } }) },
    );
    expect(result.problems).toEqual([
      'calendar "c", event "talk-7": no start date',
      'calendar "c", event "1042": no start date',
      'calendar "c", event 3 in the list (no id): no id',
    ]);
  });

  it("should fail when no listed event can be read, naming the first reason", () => {
    const result = evaluateSamples(
      {
        calendars: [
          { record: calendar, events: [{ id: "e1", title: "Talk", dateFrom: "2026-05-01" }] },
        ],
        details: [],
      },
      options,
    );
    expect(result.failures).toEqual([
      'No listed event could be read; the first: calendar "c", event "e1": no start date.',
    ]);
    expect(result.unread).toEqual(["event.dateFrom"]);
  });
});
