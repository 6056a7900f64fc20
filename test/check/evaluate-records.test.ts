import { describe, expect, it } from "vitest";
import { evaluateRecords } from "../../src/check/evaluate-records.ts";
import { EMPTY_FIELD_MAP } from "../../src/model/field-map.ts";
import type { WireRecord } from "../../src/model/wire.ts";

const options = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };
const event = (id: string, fields: WireRecord = {}): WireRecord => ({
  id,
  title: "Talk",
  start: "2026-05-01T10:00:00+02:00",
  ...fields,
});

describe("evaluateRecords", () => {
  it("should count as publishable only what the build publishes, its details included", () => {
    const report = evaluateRecords(
      [
        {
          record: { id: "c", name: "Calendar" },
          events: [
            { listed: event("fine"), details: event("fine", { summary: "Short" }) },
            // Readable from the list; its details give a zone no build can use.
            { listed: event("zone"), details: event("zone", { timeZone: "Mars/Base" }) },
            { listed: event("gone"), details: null, gone: true },
            { listed: event("e\ud800"), details: null },
          ],
        },
      ],
      options,
    );
    expect(report.listed).toBe(4);
    expect(report.publishable).toBe(1);
    expect(report.lines).toEqual([
      'event "zone" in calendar "c": skipped (unknown time zone "Mars/Base")',
      'event "gone" in calendar "c": skipped (listed, but its details answer 404)',
      'event "e\\ud800" in calendar "c": skipped (id is not well-formed Unicode (a lone UTF-16 surrogate))',
    ]);
    for (const line of report.lines) expect(line.isWellFormed()).toBe(true);
  });

  it("should say of each record the build cuts what it cuts, naming the event and its calendar", () => {
    const report = evaluateRecords(
      [
        {
          record: { id: "c", name: "Calendar" },
          events: [
            {
              listed: event("many", { title: "Broken \ud800 title" }),
              details: event("many", {
                title: "Broken \ud800 title",
                categories: Array.from({ length: 500 }, (_, i) => `Category ${i}`),
              }),
            },
          ],
        },
        { record: { name: "No id" }, events: [{ listed: event("lost"), details: null }] },
      ],
      options,
    );
    expect(report).toEqual({
      listed: 2,
      publishable: 1,
      lines: [
        'event "many" in calendar "c": title: lone UTF-16 surrogates replaced by U+FFFD',
        'event "many" in calendar "c": 500 categories, the first 30 are published',
        "calendar #2 in the list: skipped with its 1 events (no id)",
      ],
    });
  });
});
