import { describe, expect, it } from "vitest";
import { unwrapDetails } from "../../src/api/details-envelope.ts";
import { EMPTY_FIELD_MAP, parseFieldMap } from "../../src/model/field-map.ts";

const record = { id: 1042, name: "Repair Café", perex: "Bring what is broken." };

describe("unwrapDetails", () => {
  it.each(["data", "item", "event", "result", "record", "payload"])(
    "should read the record inside a single-record envelope under %s",
    (key) => {
      expect(unwrapDetails({ [key]: record, meta: { version: 2 } }, EMPTY_FIELD_MAP)).toEqual({
        record,
        envelope: key,
      });
    },
  );

  it("should leave a bare record alone, even one with an object-valued data field", () => {
    const bare = { id: "e1", title: "Talk", data: { room: "B" } };
    expect(unwrapDetails(bare, EMPTY_FIELD_MAP)).toEqual({ record: bare, envelope: null });
  });

  it("should flatten a JSON:API resource to its id and attributes", () => {
    const body = { data: { id: "7", type: "events", attributes: { title: "Concert" } } };
    expect(unwrapDetails(body, EMPTY_FIELD_MAP).record).toEqual({ id: "7", title: "Concert" });
  });

  it("should keep the envelope when the field map reaches into it", () => {
    const map = parseFieldMap({ event: { id: "data.id", summary: "data.perex" } });
    const body = { data: record };
    expect(unwrapDetails(body, map)).toEqual({ record: body, envelope: null });
  });

  it("should leave a body with no record inside as it is", () => {
    const body = { message: "ok", data: [1, 2] };
    expect(unwrapDetails(body, EMPTY_FIELD_MAP)).toEqual({ record: body, envelope: null });
  });
});
