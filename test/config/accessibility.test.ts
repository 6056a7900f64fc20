import { describe, expect, it } from "vitest";
import {
  incompleteStatementWarning,
  readAccessibilitySettings,
} from "../../src/config/accessibility.ts";
import { readSiteConfig } from "../../src/config/site.ts";
import { ConfigError } from "../../src/errors.ts";

describe("accessibility settings", () => {
  it("should say partial conformance, with no date, contact or enforcement body, unless set", () => {
    expect(readSiteConfig({}).accessibility).toEqual({
      conformance: "partial",
      statementDate: null,
      contact: null,
      enforcementUrl: null,
    });
  });

  it("should read each setting as the statement shows it", () => {
    expect(
      readAccessibilitySettings({
        ACCESSIBILITY_CONFORMANCE: " Full ",
        ACCESSIBILITY_STATEMENT_DATE: "2026-03-01",
        ACCESSIBILITY_CONTACT: "mailto:access@example.org",
        ACCESSIBILITY_ENFORCEMENT_URL: "https://www.example.eu/enforcement",
      }),
    ).toEqual({
      conformance: "full",
      statementDate: "2026-03-01",
      contact: { kind: "email", text: "access@example.org", href: "mailto:access@example.org" },
      enforcementUrl: "https://www.example.eu/enforcement",
    });
    expect(
      readAccessibilitySettings({ ACCESSIBILITY_CONTACT: "https://example.org/contact" }).contact,
    ).toEqual({
      kind: "url",
      text: "https://example.org/contact",
      href: "https://example.org/contact",
    });
  });

  it("should refuse what is not one, with one line naming the setting", () => {
    for (const [name, value] of [
      ["ACCESSIBILITY_CONFORMANCE", "mostly"],
      ["ACCESSIBILITY_STATEMENT_DATE", "2026-02-30"],
      ["ACCESSIBILITY_STATEMENT_DATE", "1 March 2026"],
      ["ACCESSIBILITY_CONTACT", "javascript:alert(1)"],
      ["ACCESSIBILITY_CONTACT", "http://example.org/contact"],
      ["ACCESSIBILITY_CONTACT", "<b>a@b.c</b>"],
      ["ACCESSIBILITY_ENFORCEMENT_URL", "https://user:secret@example.org/"],
      ["ACCESSIBILITY_ENFORCEMENT_URL", "example.org"],
    ] as const) {
      const read = () => readAccessibilitySettings({ [name]: value });
      expect(read, `${name}=${value}`).toThrow(ConfigError);
      expect(read, `${name}=${value}`).toThrow(new RegExp(`^${name}: `));
    }
  });

  it("should warn, naming what is missing, until the statement has a contact and a date", () => {
    const complete = readAccessibilitySettings({
      ACCESSIBILITY_CONTACT: "access@example.org",
      ACCESSIBILITY_STATEMENT_DATE: "2026-03-01",
    });
    expect(incompleteStatementWarning(complete)).toBeNull();
    const warning = incompleteStatementWarning({ ...complete, contact: null });
    expect(warning).toContain("ACCESSIBILITY_CONTACT");
    expect(warning).not.toContain("ACCESSIBILITY_STATEMENT_DATE");
    expect(warning).not.toContain("\n");
    expect(incompleteStatementWarning(readAccessibilitySettings({}))).toMatch(
      /ACCESSIBILITY_CONTACT.*ACCESSIBILITY_STATEMENT_DATE/,
    );
  });
});
