import { describe, expect, it } from "vitest";
import { PerEvent } from "../../src/model/per-event.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";

const [first, second] = fixtureSnapshot.events as [CalendarEvent, CalendarEvent];

describe("PerEvent", () => {
  it("should work out each event's answer once per key, however many keys an event is asked with", () => {
    const memo = new PerEvent<string>();
    let computed = 0;
    const ask = (event: CalendarEvent, key: string) =>
      memo.get(event, key, () => {
        computed++;
        return `${event.id} in ${key}`;
      });
    expect(ask(first, "en")).toBe(`${first.id} in en`);
    expect(ask(first, "en")).toBe(`${first.id} in en`);
    expect(computed).toBe(1);
    // A second and a third key for the same event, and the first still known.
    expect(ask(first, "fr")).toBe(`${first.id} in fr`);
    expect(ask(first, "de")).toBe(`${first.id} in de`);
    expect(ask(first, "en")).toBe(`${first.id} in en`);
    expect(ask(first, "fr")).toBe(`${first.id} in fr`);
    expect(computed).toBe(3);
    // Another event has answers of its own.
    expect(ask(second, "en")).toBe(`${second.id} in en`);
    expect(computed).toBe(4);
  });

  it("should forget every answer when cleared", () => {
    const memo = new PerEvent<number>();
    let computed = 0;
    const ask = (key: string) => memo.get(first, key, () => ++computed);
    ask("a");
    ask("b");
    memo.clear();
    expect(ask("a")).toBe(3);
    expect(ask("b")).toBe(4);
    expect(ask("a")).toBe(3);
  });
});
