import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";
import { readChoice } from "./read-setting.ts";

/**
 * What the accessibility statement (/accessibility/) says about the site:
 * the parts of the EU model statement (Commission Implementing Decision (EU)
 * 2018/1523, annex) that only the site's owner can fill in. The rest (how
 * the site was checked, what the project knows it cannot vouch for) is the
 * project's and written in the page itself (docs/site.md, "Accessibility").
 */
export interface AccessibilitySettings {
  /**
   * ACCESSIBILITY_CONFORMANCE: how far the site meets the standard it is
   * held to (EN 301 549, which takes WCAG 2.1 AA for the web): "full",
   * "partial" or "none", the model statement's three wordings.
   */
  readonly conformance: Conformance;
  /**
   * ACCESSIBILITY_STATEMENT_DATE: when the statement was prepared
   * ("2026-03-01"), or null. A setting, never the build's clock: the
   * statement is as old as its last review, not its last rebuild.
   */
  readonly statementDate: string | null;
  /** ACCESSIBILITY_CONTACT: where visitors report barriers, or null. */
  readonly contact: AccessibilityContact | null;
  /** ACCESSIBILITY_ENFORCEMENT_URL: the enforcement body's page, or null. */
  readonly enforcementUrl: string | null;
}

export const CONFORMANCE_LEVELS = ["full", "partial", "none"] as const;
export type Conformance = (typeof CONFORMANCE_LEVELS)[number];

/** An e-mail address (shown as written, linked with mailto:) or a web page. */
export interface AccessibilityContact {
  readonly kind: "email" | "url";
  /** What the page shows: the address, or the URL. */
  readonly text: string;
  /** Where the link goes: "mailto:…" or the URL. */
  readonly href: string;
}

/** What readAccessibilitySettings reads. */
export const ACCESSIBILITY_SETTINGS = envSettings("Site", [
  "ACCESSIBILITY_CONFORMANCE",
  "ACCESSIBILITY_STATEMENT_DATE",
  "ACCESSIBILITY_CONTACT",
  "ACCESSIBILITY_ENFORCEMENT_URL",
]);

export function readAccessibilitySettings(env: NodeJS.ProcessEnv): AccessibilitySettings {
  return {
    conformance: readChoice(
      "ACCESSIBILITY_CONFORMANCE",
      env.ACCESSIBILITY_CONFORMANCE,
      CONFORMANCE_LEVELS,
      "partial",
    ),
    statementDate: readStatementDate(env.ACCESSIBILITY_STATEMENT_DATE),
    contact: readContact(env.ACCESSIBILITY_CONTACT),
    enforcementUrl: readEnforcementUrl(env.ACCESSIBILITY_ENFORCEMENT_URL),
  };
}

/**
 * The settings a complete statement needs and this one lacks, as one line
 * for the build's warnings; null when nothing is missing. The model
 * statement requires a feedback mechanism and the date it was prepared.
 */
export function incompleteStatementWarning(settings: AccessibilitySettings): string | null {
  const missing = [
    settings.contact ? null : "ACCESSIBILITY_CONTACT (where visitors report barriers)",
    settings.statementDate ? null : "ACCESSIBILITY_STATEMENT_DATE (when it was prepared)",
  ].filter((name): name is string => name !== null);
  if (missing.length === 0) return null;
  return `The accessibility statement (/accessibility/) is incomplete: set ${missing.join(" and ")} (docs/configuration.md, "Accessibility statement").`;
}

function readStatementDate(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  // A calendar date (ISO 8601), checked against the calendar: 2026-02-30 is no date.
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(`${value}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new ConfigError(
      `ACCESSIBILITY_STATEMENT_DATE: "${value}" is not a date (expected e.g. 2026-03-01).`,
    );
  }
  return value;
}

/** Something@somewhere, without spaces, markup or control characters. */
const EMAIL = /^[^\s@<>"\p{Cc}\p{Cf}]+@[^\s@<>"\p{Cc}\p{Cf}]+\.[^\s@<>"\p{Cc}\p{Cf}]+$/u;

function readContact(raw: string | undefined): AccessibilityContact | null {
  const value = raw?.trim();
  if (!value) return null;
  const address = value.replace(/^mailto:/i, "");
  if (EMAIL.test(address)) return { kind: "email", text: address, href: `mailto:${address}` };
  const url = webUrl(value);
  if (url) return { kind: "url", text: value, href: url };
  throw new ConfigError(
    `ACCESSIBILITY_CONTACT: "${value}" is neither an e-mail address nor an https:// URL (expected e.g. access@example.org or https://example.org/contact).`,
  );
}

function readEnforcementUrl(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const url = webUrl(value);
  if (!url) {
    throw new ConfigError(
      `ACCESSIBILITY_ENFORCEMENT_URL: "${value}" is not an https:// URL (expected the enforcement body's page).`,
    );
  }
  return url;
}

/** An https URL without credentials, as written; null for anything else. */
function webUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password) return null;
  return url.href;
}
