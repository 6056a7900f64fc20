import { describe, expect, it } from "vitest";
import { ObjectDigests } from "../../src/render/object-digest.ts";

const plain = () => new ObjectDigests(() => undefined);

describe("object digests", () => {
  it("should tell data apart by every field, at any depth, and not by key order or absent fields", () => {
    const digests = plain();
    const page = { path: "/a/", days: [{ date: "2026-12-01", events: [{ title: "Choir" }] }] };
    const same = { days: [{ date: "2026-12-01", events: [{ title: "Choir" }] }], path: "/a/" };
    const other = { path: "/a/", days: [{ date: "2026-12-01", events: [{ title: "Choir!" }] }] };
    expect(digests.of(page)).not.toBe(digests.of(other));
    expect(digests.of({ ...page, hidden: undefined })).toBe(digests.of(page));
    // Fields in another order are another text: the same template reads the same order.
    expect(digests.of(same)).not.toBe(digests.of(page));
    expect(digests.of([1, "1"])).not.toBe(digests.of(["1", 1]));
    expect(digests.of(null)).toBe("null");
  });

  it("should read a shared object once, and stand for a known object with its leaf text", () => {
    let read = 0;
    const event = { id: "e1", title: "Choir", updatedAt: "2026-11-01T00:00:00Z" };
    const digests = new ObjectDigests((value) => {
      if (value !== event) return undefined;
      read++;
      return JSON.stringify(event.id);
    });
    const summary = { upcoming: [event, event] };
    const first = digests.of({ page: 1, summary });
    const second = digests.of({ page: 2, summary });
    expect(read).toBe(1);
    expect(first).not.toBe(second);
    // The leaf is what counts: a copy of the event is read whole, so it is another text.
    expect(digests.of({ page: 1, summary: { upcoming: [{ ...event }, event] } })).not.toBe(first);
  });

  it("should refuse what it cannot read whole: a Map, a class instance, a cycle", () => {
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = cycle;
    class Index {
      readonly size = 1;
    }
    expect(() => plain().of({ places: new Map([["a", 1]]) })).toThrow(/Not plain data: Map/);
    expect(() => plain().of({ index: new Index() })).toThrow(/Not plain data: Index/);
    expect(() => plain().of(cycle)).toThrow(/cycle/);
    // A value with its own JSON (a date) is read as JSON says.
    expect(plain().of({ at: new Date(0) })).toBe(plain().of({ at: new Date(0) }));
    expect(plain().of({ at: new Date(0) })).not.toBe(plain().of({ at: new Date(1) }));
  });
});
