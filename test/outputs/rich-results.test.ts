import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type FieldMap, parseFieldMap } from "../../src/model/field-map.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { eventJsonLd, eventJsonLdId } from "../../src/outputs/jsonld.ts";
import {
  RichResultsTally,
  richResultsKey,
  richResultsLines,
  richResultsMetrics,
  richResultsOf,
} from "../../src/outputs/rich-results.ts";
import { formatBuildReport } from "../../src/publish/report.ts";
import { normalizedEvent } from "../helpers/normalized-event.ts";

/*
 * Google's Event rich results: the shares the build report gives are counted
 * from the JSON-LD the pages emit, and the field map's performer and offers.*
 * keys reach that JSON-LD.
 */

const calendar = { id: "culture", timeZone: "Europe/Amsterdam" };
const URL = "https://events.example.org/calendars/culture/events/concert/";

const concert: WireRecord = {
  id: "concert",
  title: "Harbour Concert",
  start: "2026-04-04T20:00:00+02:00",
  end: "2026-04-04T22:00:00+02:00",
  summary: "Brass by the water.",
  location: { name: "Harbour", address: { street: "Kade 1", city: "Amsterdam" } },
  registrationUrl: "https://tickets.example.org/concert",
};

const normalize = (record: WireRecord, fieldMap?: FieldMap): CalendarEvent =>
  normalizedEvent(record, { calendar, fieldMap });

describe("performers and offers from the portal", () => {
  it("should read them through the field map's performer and offers.* keys into the JSON-LD", () => {
    const fieldMap = parseFieldMap({
      "event.performer": "lineup.acts",
      "event.offers.price": "ticket.amount",
      "event.offers.currency": "ticket.cur",
      "event.offers.availability": "ticket.state",
      "event.offers.validFrom": "ticket.onSale",
    });
    const event = normalize(
      {
        ...concert,
        lineup: { acts: ["Harbour Brass", { name: "Anna Vos", url: "https://anna.example.org" }] },
        ticket: { amount: "12,50", cur: "eur", state: "sold_out", onSale: "2026-03-01T09:00:00Z" },
      },
      fieldMap,
    );
    const ld = eventJsonLd(event, URL);
    expect(ld.offers).toEqual({
      "@type": "Offer",
      url: "https://tickets.example.org/concert",
      price: "12.50",
      priceCurrency: "EUR",
      availability: "https://schema.org/SoldOut",
      validFrom: "2026-03-01T09:00:00Z",
    });
    expect(ld.performer).toEqual([
      { "@type": "Person", name: "Harbour Brass" },
      { "@type": "Person", name: "Anna Vos", url: "https://anna.example.org" },
    ]);
  });

  it("should read common wire names without a map, and a band as a performing group", () => {
    const event = normalize({
      ...concert,
      price: 0,
      currency: "EUR",
      performers: [{ name: "Harbour Brass", type: "band" }],
    });
    const ld = JSON.parse(JSON.stringify(eventJsonLd(event, URL)));
    expect(ld.offers).toMatchObject({ price: "0", priceCurrency: "EUR" });
    expect(ld.performer).toEqual([{ "@type": "PerformingGroup", name: "Harbour Brass" }]);
  });

  it("should leave an event without them exactly as it was, and skip what cannot be read", () => {
    const plain = normalize(concert);
    expect(Object.keys(plain)).not.toContain("offer");
    expect(Object.keys(plain)).not.toContain("performers");
    const unreadable = normalize({ ...concert, price: "about ten", currency: "euro" });
    expect(Object.keys(unreadable)).not.toContain("offer");
    expect(eventJsonLd(plain, URL).offers).toEqual({
      "@type": "Offer",
      url: "https://tickets.example.org/concert",
    });
  });
});

describe("rich results shares", () => {
  const full = normalize({
    ...concert,
    image: "https://img.example.org/c.jpg",
    organizer: { name: "Harbour Arts", url: "https://harbour.example.org" },
    performer: "Harbour Brass",
    price: "10",
    currency: "EUR",
    availability: "InStock",
    salesStart: "2026-03-01T09:00:00Z",
  });
  const bare = normalize({
    id: "talk",
    title: "Online talk",
    start: "2026-04-05T10:00:00+02:00",
  });
  const nowhere = normalize({ id: "walk", title: "Walk", start: "2026-04-06T10:00:00+02:00" });
  const ld = [full, bare, nowhere].map((event) =>
    eventJsonLd(event, `https://events.example.org/e/${event.id}/`),
  );

  it("should count each field from the JSON-LD objects, each event once", () => {
    const tally = new RichResultsTally();
    for (const item of [...ld, ld[0] ?? {}]) tally.add(item);
    const results = tally.summary();
    expect(results.events).toBe(3);
    const counts = new Map(
      [...results.required, ...results.recommended].map((f) => [f.field, f.count]),
    );
    // Only the full concert has these: the talk and the walk name no place and no online link.
    for (const field of [
      "location",
      "image",
      "offers.price",
      "offers.priceCurrency",
      "offers.availability",
      "offers.validFrom",
      "offers.url",
      "organizer.url",
      "performer",
    ]) {
      expect(counts.get(field), field).toBe(1);
    }
    // Every event has these; a timed event without an end is published with endDate = startDate.
    for (const field of ["name", "startDate", "endDate", "eventStatus"]) {
      expect(counts.get(field), field).toBe(3);
    }
  });

  it("should count a page kept as published by what its JSON-LD met in the last build", () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "ecp-rich-results-"));
    try {
      const events = [full, bare, nowhere];
      const urlOf = (event: CalendarEvent) => `https://events.example.org/e/${event.id}/`;
      const first = RichResultsTally.load(cacheDir);
      for (const event of events)
        first.add(eventJsonLd(event, urlOf(event)), richResultsKey(event));
      first.save();
      // The next build: nothing made again for the events it counted, the same shares.
      const next = RichResultsTally.load(cacheDir);
      const made: string[] = [];
      const make = (event: CalendarEvent) => () => {
        made.push(event.id);
        return eventJsonLd(event, urlOf(event));
      };
      for (const event of events) {
        next.addKept(eventJsonLdId(urlOf(event)), richResultsKey(event), make(event));
      }
      expect(made).toEqual([]);
      expect(next.summary()).toEqual(first.summary());
      // An event that changed, or now names images of its own, is another key: made again.
      const edited = { ...full, title: "Harbour Concert, moved indoors" };
      const again = RichResultsTally.load(cacheDir);
      again.addKept(eventJsonLdId(urlOf(edited)), richResultsKey(edited), make(edited));
      again.addKept(eventJsonLdId(urlOf(bare)), richResultsKey(bare, ["card.png"]), make(bare));
      again.addKept(eventJsonLdId(urlOf(nowhere)), richResultsKey(nowhere), make(nowhere));
      expect(made).toEqual([full.id, bare.id]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("should count a place without an address short, and an online event with its link", () => {
    const online = normalize({ ...concert, location: null, onlineUrl: "https://meet.example.org" });
    const placeOnly = normalize({ ...concert, location: "Harbour" });
    const results = richResultsOf([eventJsonLd(online, URL), eventJsonLd(placeOnly, `${URL}2`)]);
    expect(results.required.find((f) => f.field === "location")?.count).toBe(1);
  });

  it("should say in the report which field-map keys fill what is missing, and give the shares in --metrics", () => {
    const results = richResultsOf(ld);
    const lines = richResultsLines(results);
    expect(lines[0]).toBe(
      "  rich results  3 event pages: required name 100%, startDate 100%, location 33%",
    );
    expect(lines[1]).toContain("image 33%");
    expect(lines[1]).toContain("eventStatus 100%");
    expect(lines[2]).toContain("`location`");
    expect(lines[2]).toContain("`offers.price`");
    expect(lines[2]).toContain("`performer`");
    expect(lines[2]).not.toContain("`status`");
    const complete = richResultsLines(richResultsOf([ld[0] ?? {}]));
    expect(complete[0]).toBe(
      "  rich results  1 event pages: required 100% (name, startDate, location)",
    );
    expect(complete).toHaveLength(2);
    expect(richResultsMetrics(results)).toMatchObject({
      events: 3,
      required: { name: 1, location: 0.3333 },
      recommended: { performer: 0.3333, eventAttendanceMode: 1 },
    });
    const report = formatBuildReport({
      calendars: 1,
      events: 3,
      pages: 3,
      files: 3,
      warnings: [],
      seconds: 1,
      output: "_site",
      richResults: results,
    });
    expect(report).toContain(lines.join("\n"));
  });
});
