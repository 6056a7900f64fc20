import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { startedUnder, waitForGo } from "../../src/ready/wait-for-go.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/*
 * How a build started ahead (`npm run build -- --ready`) is told to go, or
 * that it is not needed, and how it knows that what it loaded is no longer
 * what is on disk.
 */

const work = tempDir("ecp-wait-for-go-");

describe("a build waiting to go", () => {
  it("should go on the line go, whatever came before it and however it is cut", async () => {
    const input = new PassThrough();
    const go = waitForGo(input);
    input.write("hello\ng");
    input.write("o\n");
    await expect(go).resolves.toBe(true);
    expect(input.destroyed).toBe(true);
  });

  it("should not go when its input ends first", async () => {
    const input = new PassThrough();
    const go = waitForGo(input);
    input.end("going\n");
    await expect(go).resolves.toBe(false);
  });

  it("should see the .env file it started with changed, and unchanged when it is as it was", () => {
    const file = join(work, "settings.env");
    writeFileSync(file, "SITE_TITLE=One\n");
    const current = startedUnder({ ENV_FILE: file });
    expect(current()).toBe(true);
    writeFileSync(file, "SITE_TITLE=Two\n");
    expect(current()).toBe(false);
    writeFileSync(file, "SITE_TITLE=One\n");
    expect(current()).toBe(true);
  });
});
