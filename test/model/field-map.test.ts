import { describe, expect, it } from "vitest";
import {
  eventPathIn,
  fieldTranslations,
  parseFieldMap,
  pickEventField,
  unmappedFields,
} from "../../src/model/field-map.ts";

/** A field map written when details came as `{ "data": { ... } }` and were read with it. */
const enveloped = parseFieldMap({
  event: { summary: "data.perex", image: "data.attributes.poster", start: "schedule.begins" },
});

describe("field maps written for a details envelope", () => {
  it("should read inside the envelope on a record that was taken out of it", () => {
    const unwrapped = { id: 7, perex: "Bring what is broken.", poster: "https://x.test/p.jpg" };
    expect(pickEventField([unwrapped], "summary", enveloped)).toBe("Bring what is broken.");
    expect(pickEventField([unwrapped], "image", enveloped)).toBe("https://x.test/p.jpg");
  });

  it("should read the path as written where the record has a field of the envelope's name", () => {
    const own = { id: 7, perex: "top level", data: { perex: "inside data" } };
    expect(pickEventField([own], "summary", enveloped)).toBe("inside data");
    const elsewhere = { id: 7, perex: "top level", data: { room: "B" } };
    expect(pickEventField([elsewhere], "summary", enveloped)).toBeUndefined();
  });

  it("should leave paths that do not start with an envelope key alone", () => {
    expect(eventPathIn({ begins: "2026-05-01" }, "schedule.begins")).toBe("schedule.begins");
    expect(pickEventField([{ begins: "2026-05-01" }], "start", enveloped)).toBeUndefined();
    expect(eventPathIn({}, "data")).toBe("data");
  });

  it("should count the field read through the envelope path as read", () => {
    const unwrapped = { id: 7, perex: "Short", poster: "https://x.test/p.jpg", extra: 1 };
    expect(unmappedFields(unwrapped, "event", enveloped)).toEqual(["extra"]);
  });
});

describe("field maps with translations", () => {
  const map = parseFieldMap({
    event: { "title.fr": "title_fr", "description.fr": "data.text_fr", "title.pt-br": "titulo" },
  });

  it("should list each language's wire fields, its tag canonical", () => {
    expect([...fieldTranslations(map)]).toEqual([
      ["fr", { title: "title_fr", description: "data.text_fr" }],
      ["pt-BR", { title: "titulo" }],
    ]);
  });

  it("should count the translations' fields as read, so check-api names none of them", () => {
    const record = {
      id: 7,
      title: "Concert",
      title_fr: "Concert",
      text_fr: "<p>…</p>",
      titulo: "",
      x: 1,
    };
    expect(unmappedFields(record, "event", map)).toEqual(["x"]);
  });
});
