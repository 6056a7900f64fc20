import type { FieldMap } from "../model/field-map.ts";

/** One setting as it goes into the block: variable name and value. */
export type Setting = readonly [name: string, value: string];

/**
 * The settings in effect, complete: every EVENT_API_* variable of the
 * environment except the token itself, with `changes` applied (a null value
 * drops the variable). The token is never repeated: it stays where it is.
 */
export function settingsInEffect(
  env: NodeJS.ProcessEnv,
  changes: Readonly<Record<string, string | null>>,
): Setting[] {
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("EVENT_API_") || name === "EVENT_API_TOKEN") continue;
    if (value !== undefined && value.trim() !== "") values.set(name, value.trim());
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) values.delete(name);
    else values.set(name, value);
  }
  const order = ["EVENT_API_URL", "EVENT_API_TOKEN_FILE", "EVENT_API_AUTH", "EVENT_API_PAGING"];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...values].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A field map as compact JSON, without empty record kinds. */
export function formatFieldMap(map: FieldMap): string {
  const out: Record<string, Record<string, string>> = {};
  if (Object.keys(map.calendar).length > 0) out.calendar = { ...map.calendar };
  if (Object.keys(map.event).length > 0) out.event = { ...map.event } as Record<string, string>;
  return JSON.stringify(out);
}

const TOKEN_NOTE =
  "# EVENT_API_TOKEN is not repeated here: keep it where it is (environment, .env or EVENT_API_TOKEN_FILE).";

/** `export NAME='value'` lines for a POSIX shell; any value survives single quotes. */
export function shellBlock(settings: readonly Setting[]): string {
  const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  return [...settings.map(([name, value]) => `export ${name}=${quote(value)}`), TOKEN_NOTE].join(
    "\n",
  );
}

/**
 * `NAME=value` lines for a .env file as Node's `util.parseEnv` (and the
 * dotenv family) read them: bare when safe, else in the first quote kind the
 * value does not contain. A value holding every quote kind or a line break
 * cannot be written; it becomes a comment saying so.
 */
export function envFileBlock(settings: readonly Setting[]): string {
  const lines = settings.map(([name, value]) => {
    if (/^[\w./:@,+=%-]*$/.test(value)) return `${name}=${value}`;
    const quote = /[\r\n]/.test(value)
      ? undefined
      : ["'", "`", '"'].find((q) => !value.includes(q));
    return quote
      ? `${name}=${quote}${value}${quote}`
      : `# ${name} cannot be written in a .env file (it holds every quote character); set it in the environment.`;
  });
  return [...lines, TOKEN_NOTE].join("\n");
}
