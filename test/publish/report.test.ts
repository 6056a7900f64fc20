import { describe, expect, it } from "vitest";
import { formatBuildReport, formatBytes } from "../../src/publish/report.ts";

/** A small build's report, for the tests of one of its lines. */
const base = {
  calendars: 1,
  events: 10,
  pages: 3,
  files: 9,
  warnings: [],
  seconds: 1,
  output: "_site",
};

describe("formatBuildReport", () => {
  it("should say what was written, the warnings and the time, one fact a line", () => {
    const text = formatBuildReport({
      calendars: 4,
      events: 128,
      pages: 212,
      files: 540,
      bytes: 3_355_443,
      warnings: ['event "x" skipped: no start date', "calendar jazz: description\ntoo long"],
      seconds: 12.43,
      output: "_site",
    });

    expect(text).toBe(
      [
        "Build report",
        "  calendars  4",
        "  events     128",
        "  pages      212",
        "  files      540, 3.2 MB in _site",
        "  warnings   2",
        '    - event "x" skipped: no start date',
        "    - calendar jazz: description too long",
        "  time       12.4 s",
      ].join("\n"),
    );
  });

  it("should say that a build with nothing to do kept the site, since when and until when, in place of the changes", () => {
    const text = formatBuildReport({
      ...base,
      changes: null,
      unchanged: { since: "2026-03-20T12:00:00.000Z", until: "2026-03-20T22:59:30.001Z" },
      fileChanges: { added: 0, changed: 1, removed: 0, unchanged: 8 },
    });

    expect(text).toContain(
      "  changes    none since the last publish (2026-03-20 12:00 UTC): the portal's data, the settings and the code are as it recorded them, and nothing date-relative changes before 2026-03-20 22:59:30 UTC; nothing rendered, its files kept\n",
    );
    expect(text).not.toContain("none known");
    expect(text).toContain(
      "    changed  0 new, 1 changed, 0 removed since the last publish (8 unchanged)",
    );
  });

  it("should list at most ten warnings and count the rest", () => {
    const warnings = Array.from({ length: 13 }, (_, index) => `warning ${index + 1}`);
    const text = formatBuildReport({ ...base, warnings, output: "out" });

    expect(text).toContain("  warnings   13");
    expect(text).toContain("    - warning 10");
    expect(text).not.toContain("warning 11");
    expect(text).toContain("    … and 3 more");
    expect(text).toContain("  files      9 in out");
  });

  it("should say where the warnings it does not list are, and list them all when asked", () => {
    const warnings = Array.from({ length: 12 }, (_, index) => `warning ${index + 1}`);
    const input = {
      ...base,
      warnings,
      warningsFile: ".cache/published/0123456789abcdef/build-warnings.json",
    };
    expect(formatBuildReport(input)).toContain(
      "    … and 2 more: all 12 in .cache/published/0123456789abcdef/build-warnings.json, and listed here with --verbose\n",
    );
    const all = formatBuildReport({ ...input, allWarnings: true });
    expect(all).toContain("    - warning 12\n  time");
    expect(all).not.toContain("more");
    // Ten or fewer: all listed, nothing to point to.
    expect(formatBuildReport({ ...input, warnings: warnings.slice(0, 10) })).not.toContain("…");
  });

  it("should put the host's line under the files", () => {
    const text = formatBuildReport({ ...base, host: "GitHub Pages: 3.0 MB of 1 GB" });
    expect(text.split("\n").slice(4, 6)).toEqual([
      "  files      9 in _site",
      "  host       GitHub Pages: 3.0 MB of 1 GB",
    ]);
  });
});

describe("formatBuildReport changes", () => {
  const none = { title: "", detail: null };

  it("should count the files new, changed and removed since the last publish under the files line", () => {
    const text = formatBuildReport({
      ...base,
      fileChanges: { added: 2, changed: 5, removed: 1, unchanged: 2 },
    });
    expect(text).toContain(
      "\n  files      9 in _site\n    changed  2 new, 5 changed, 1 removed since the last publish (2 unchanged)\n  warnings",
    );
    expect(formatBuildReport({ ...base, fileChanges: null })).toContain(
      "    changed  not known (no earlier files to compare with)",
    );
    expect(formatBuildReport(base)).not.toContain("    changed");
  });

  it("should say when no previous state was found", () => {
    expect(formatBuildReport({ ...base, changes: null })).toContain(
      "\n  events     10\n  changes    none known (no previous state to compare with)\n  pages",
    );
    expect(formatBuildReport(base)).not.toContain("changes");
  });

  it("should count each kind of change and name the first few events", () => {
    const text = formatBuildReport({
      ...base,
      changes: {
        since: "2026-03-19T12:00:00Z",
        added: ["One", "Two", "Three", "Four", "Five"].map((title) => ({ ...none, title })),
        changed: [],
        moved: [{ title: "Open Studio Night", detail: "new date Fri 27 Mar 2026 19:30" }],
        cancelled: [{ ...none, title: "Jazz\nNight" }],
        postponed: [],
        reinstated: [{ ...none, title: "Back Again" }],
        deleted: [{ ...none, title: "Gone" }],
      },
    });
    expect(text).toContain(
      [
        "  changes    since the last publish (2026-03-19 12:00 UTC)",
        "    added      5   One; Two; Three; … and 2 more",
        "    changed    0",
        "    moved      1   Open Studio Night (new date Fri 27 Mar 2026 19:30)",
        "    cancelled  1   Jazz Night",
        "    deleted    1   Gone",
        "    reinstated 1   Back Again",
        "  pages      3",
      ].join("\n"),
    );
    expect(text).not.toContain("postponed");
  });
});

describe("formatBytes", () => {
  it("should use binary units with one decimal", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(2048)).toBe("2.0 KB");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5.0 GB");
  });
});
