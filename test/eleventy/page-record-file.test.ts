import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAGE_RECORD_VERSION, readRecord, writeRecord } from "../../src/eleventy/page-record.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * The page record's file (src/eleventy/page-record.ts): a head line read
 * first, and the body only when the head lets the build trust it. The body
 * read must be the one under that head: a record replaced between the two
 * reads (another build's) is not trusted by halves.
 */

const record = (now: number) => ({
  version: PAGE_RECORD_VERSION,
  code: "code",
  context: "context",
  now,
  until: now + 3_600_000,
  updatedAt: null,
  events: [`digest-${now}\tseries\tplacement\tkey`],
  scopes: ["calendar:a"],
  values: {},
  pages: new Map([["calendars/a/index.html", `page-${now}||0`]]),
});

describe("the page record's file", () => {
  const file = join(tempDir("ecp-page-record-"), "page-record.json");

  it("should read its head first, and its body under that head", () => {
    writeRecord(file, record(1));
    const read = readRecord(file);
    expect(read?.head).toMatchObject({ now: 1, until: 3_600_001, code: "code" });
    expect(read?.body()).toMatchObject({
      events: ["digest-1\tseries\tplacement\tkey"],
      pages: { "calendars/a/index.html": "page-1||0" },
    });
  });

  it("should not pair a head with the body of a record written since", () => {
    writeRecord(file, record(1));
    const read = readRecord(file);
    expect(read?.head.now).toBe(1);
    writeRecord(file, record(2));
    expect(read?.body()).toBeNull();
    expect(readRecord(file)?.body()?.pages).toEqual({ "calendars/a/index.html": "page-2||0" });
  });

  it("should refuse a body cut short or a head of another version", () => {
    writeRecord(file, record(1));
    const [head = "", body = ""] = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, `${head}\n${body.slice(0, body.length >> 1)}`);
    expect(readRecord(file)?.head.now).toBe(1);
    expect(readRecord(file)?.body()).toBeNull();
    writeFileSync(
      file,
      `${head.replace(`"version":${PAGE_RECORD_VERSION}`, '"version":1')}\n${body}`,
    );
    expect(readRecord(file)).toBeNull();
  });
});
