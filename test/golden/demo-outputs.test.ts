import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtDemoSite } from "../helpers/demo-site.ts";

/*
 * The demo site's main outputs, byte for byte, at the pinned clock: a change
 * to what subscribers, feed readers and visitors get shows here as a diff of
 * a file under test/golden/demo/ to read and accept (`npx vitest run
 * test/golden --update`: the folder first, since `-u` takes the word after
 * it as its kind of update), as ical-generator keeps its result files. The
 * parsers' tests say what the files must mean; these say what they are.
 */

let root = "";

beforeAll(async () => {
  root = (await builtDemoSite()).dir;
});

const read = (path: string) => readFileSync(join(root, path), "utf8");

describe("demo outputs", () => {
  // One calendar's files: every kind of event the demo has, at a quarter of the site's size.
  it.each([
    ["calendars/culture/calendar.ics", "calendar.ics"],
    ["calendars/culture/feed.xml", "feed.xml"],
    ["calendars/culture/atom.xml", "atom.xml"],
    ["calendars/culture/feed.json", "feed.json"],
    ["api/calendars/culture/events.json", "events.json"],
    ["calendars/culture/events/jazz-boathouse-20260327/index.html", "event-page.html"],
    // Its lists, whose rows are macros (templates/_includes/event-row.njk, month-event.njk).
    ["calendars/culture/index.html", "list-page.html"],
    ["calendars/culture/2026/03/index.html", "month-page.html"],
    ["places/amstel-boathouse-78ad577e4a/index.html", "place-page.html"],
    ["when/week/index.html", "when-page.html"],
  ])("should write %s as before", async (path, golden) => {
    await expect(read(path)).toMatchFileSnapshot(`./demo/${golden}`);
  });
});
