import type { TomlTable } from "smol-toml";
import { NETLIFY_TOML_PATH, readNetlifyToml } from "../config/netlify-toml.ts";
import { ConfigError } from "../errors.ts";

/**
 * The `[[headers]]` rules of netlify.toml, matched the way Netlify matches
 * them, so the local preview server and the tests send exactly what the CDN
 * sends. netlify.toml stays the single source of truth.
 */
export interface HeaderRule {
  /** The `for` path as written, e.g. "/embed/:calendar/*". */
  readonly for: string;
  readonly values: Readonly<Record<string, string>>;
  readonly pattern: RegExp;
  /** A copy of one of netlify.toml's rules for a language's folder ("fr/", src/hosts/language-rules.ts). */
  readonly folder?: string;
}

/** A header name set by more than one rule matching the same path. */
export interface HeaderConflict {
  readonly header: string;
  readonly rules: readonly string[];
}

/**
 * Netlify's path syntax: `:name` is one segment, a lone `*` segment is the
 * (possibly empty) rest of the path, `*` inside a segment matches anything
 * including slashes; an optional trailing slash; case-insensitive.
 */
export function pathPattern(forPath: string): RegExp {
  const parts = forPath
    .split("/")
    .map((part) => part.trimEnd())
    .filter(Boolean)
    .map((part) => {
      if (part.startsWith(":")) return "([^/]+)";
      if (part === "*") return "?(.*)";
      if (part.includes("*")) return part.split("*").map(escapeRegExp).join("(.*)");
      return escapeRegExp(part);
    });
  return new RegExp(`^/${parts.join("/")}/?$`, "iu");
}

/** Parses the `[[headers]]` tables of a parsed netlify.toml. */
function parseHeaderRules(config: TomlTable): HeaderRule[] {
  const tables = config.headers ?? [];
  if (!Array.isArray(tables))
    throw new ConfigError("netlify.toml: [[headers]] must be an array of tables.");
  return tables.map((table, index) => {
    const where = `netlify.toml: [[headers]] number ${index + 1}`;
    if (!isTable(table) || typeof table.for !== "string" || !table.for.trim()) {
      throw new ConfigError(`${where} needs a "for" path.`);
    }
    if (!isTable(table.values))
      throw new ConfigError(`${where} ("${table.for}") needs [headers.values].`);
    const values: Record<string, string> = {};
    for (const [name, raw] of Object.entries(table.values)) {
      values[name.trim()] = normalizeValue(raw, `${where} ("${table.for}") ${name}`);
    }
    const forPath = table.for.trim();
    return { for: forPath, values, pattern: pathPattern(forPath) };
  });
}

export function loadHeaderRules(netlifyTomlPath: string = NETLIFY_TOML_PATH): HeaderRule[] {
  return parseHeaderRules(readNetlifyToml(netlifyTomlPath));
}

let defaultRules: HeaderRule[] | undefined;

/** The repository's rules, read once per process. */
export function defaultHeaderRules(): HeaderRule[] {
  defaultRules ??= loadHeaderRules();
  return defaultRules;
}

function matchingRules(
  urlPath: string,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): HeaderRule[] {
  const path = stripQuery(urlPath);
  return rules.filter((rule) => rule.pattern.test(path));
}

/**
 * The custom headers for a request path. Where two matching rules set the
 * same header the later rule wins, as in `netlify dev`; netlify.toml avoids
 * that case (see headerConflicts) because hosts differ on it.
 */
export function headersFor(
  urlPath: string,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): Record<string, string> {
  const headers: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const rule of matchingRules(urlPath, rules)) {
    for (const [name, value] of Object.entries(rule.values)) {
      const previous = names.get(name.toLowerCase());
      if (previous !== undefined) delete headers[previous];
      names.set(name.toLowerCase(), name);
      headers[name] = value;
    }
  }
  return headers;
}

/** Header names that more than one matching rule sets for this path. */
export function headerConflicts(
  urlPath: string,
  rules: readonly HeaderRule[] = defaultHeaderRules(),
): HeaderConflict[] {
  const setters = new Map<string, { header: string; rules: string[] }>();
  for (const rule of matchingRules(urlPath, rules)) {
    for (const name of Object.keys(rule.values)) {
      const entry = setters.get(name.toLowerCase()) ?? { header: name, rules: [] };
      entry.rules.push(rule.for);
      setters.set(name.toLowerCase(), entry);
    }
  }
  return [...setters.values()].filter((entry) => entry.rules.length > 1);
}

/** Netlify joins multi-line and array values with ", " (its headers parser does the same). */
function normalizeValue(raw: unknown, where: string): string {
  if (typeof raw === "string")
    return raw
      .trim()
      .split(/\s*,\s*/)
      .join(", ");
  if (Array.isArray(raw) && raw.every((item) => typeof item === "string")) {
    return raw.map((item) => item.trim()).join(", ");
  }
  throw new ConfigError(`${where}: a header value must be a string.`);
}

function stripQuery(urlPath: string): string {
  const end = urlPath.search(/[?#]/);
  return end === -1 ? urlPath : urlPath.slice(0, end);
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
