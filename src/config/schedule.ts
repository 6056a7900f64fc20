import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";
import { NETLIFY_TOML_PATH, readNetlifyToml } from "./netlify-toml.ts";

/**
 * The rebuild schedule lives in netlify.toml (`[functions."scheduled-rebuild"]
 * schedule`), where Netlify reads it. The build derives the calendars'
 * REFRESH-INTERVAL (RFC 7986 section 5.7) from it, so subscribers poll as
 * often as the site can change. REBUILD_INTERVAL_MINUTES overrides it for
 * hosts that schedule builds elsewhere (GitHub Actions, cron).
 */
const SCHEDULED_FUNCTION = "scheduled-rebuild";
const DEFAULT_INTERVAL_MINUTES = 60;

const MACROS: Readonly<Record<string, number>> = {
  "@hourly": 60,
  "@daily": 1440,
  "@midnight": 1440,
  "@weekly": 10080,
  "@monthly": 43200,
  "@yearly": 525600,
  "@annually": 525600,
};

const MINUTES_PER_WEEK = 7 * 1440;

/** The schedule string of the scheduled-rebuild function, or undefined when none is set. */
export function readRebuildSchedule(
  netlifyTomlPath: string = NETLIFY_TOML_PATH,
): string | undefined {
  const config = readNetlifyToml(netlifyTomlPath);
  const functions = config.functions;
  if (typeof functions !== "object" || functions === null || Array.isArray(functions))
    return undefined;
  const entry = (functions as Record<string, unknown>)[SCHEDULED_FUNCTION];
  if (typeof entry !== "object" || entry === null) return undefined;
  const schedule = (entry as Record<string, unknown>).schedule;
  if (schedule === undefined) return undefined;
  if (typeof schedule !== "string" || !schedule.trim()) {
    throw new ConfigError(
      `netlify.toml: [functions."${SCHEDULED_FUNCTION}"] schedule must be a string.`,
    );
  }
  return schedule.trim();
}

/**
 * The shortest time between two runs of a schedule, in minutes: the longest a
 * change in the portal can wait for the next build. Accepts Netlify's macros
 * and five-field cron with `*`, lists, ranges and steps in the minute, hour and
 * day-of-week fields. Day-of-month and month schedules are rejected: their gaps
 * vary too much to be one interval (set REBUILD_INTERVAL_MINUTES instead).
 */
export function scheduleToMinutes(schedule: string): number {
  const text = schedule.trim().toLowerCase();
  const macro = MACROS[text];
  if (macro !== undefined) return macro;
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    throw unsupported(schedule, "expected five cron fields or a macro like @hourly");
  const [minuteField, hourField, dayField, monthField, weekdayField] = fields as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (dayField !== "*" || monthField !== "*") {
    throw unsupported(schedule, "day-of-month and month fields must be *");
  }
  const minutes = expandField(minuteField, 0, 59, schedule);
  const hours = expandField(hourField, 0, 23, schedule);
  // Cron counts Sunday as 0 or 7.
  const weekdays = new Set([...expandField(weekdayField, 0, 7, schedule)].map((day) => day % 7));
  const runs: number[] = [];
  for (const day of [...weekdays].sort((a, b) => a - b)) {
    for (const hour of hours) {
      for (const minute of minutes) runs.push(day * 1440 + hour * 60 + minute);
    }
  }
  if (runs.length === 1) return MINUTES_PER_WEEK;
  let shortest = MINUTES_PER_WEEK;
  for (let index = 0; index < runs.length; index++) {
    const next = runs[(index + 1) % runs.length] as number;
    const gap = (next - (runs[index] as number) + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
    if (gap > 0) shortest = Math.min(shortest, gap);
  }
  return shortest;
}

/** What resolveRebuildInterval reads besides netlify.toml. */
export const SCHEDULE_SETTINGS = envSettings("Build and deploy", ["REBUILD_INTERVAL_MINUTES"]);

export interface RebuildInterval {
  readonly minutes: number;
  readonly source: "REBUILD_INTERVAL_MINUTES" | "netlify.toml" | "default";
}

/**
 * REBUILD_INTERVAL_MINUTES when set, else the netlify.toml schedule, else one
 * hour. The build exports the result as REBUILD_INTERVAL_MINUTES before the
 * site settings are read, so every output agrees on one value.
 */
export function resolveRebuildInterval(
  env: NodeJS.ProcessEnv = process.env,
  netlifyTomlPath: string = NETLIFY_TOML_PATH,
): RebuildInterval {
  const raw = env.REBUILD_INTERVAL_MINUTES?.trim();
  if (raw) {
    const minutes = Number(raw);
    if (!Number.isInteger(minutes) || minutes <= 0) {
      throw new ConfigError(
        `REBUILD_INTERVAL_MINUTES: expected a positive whole number, got "${raw}".`,
      );
    }
    return { minutes, source: "REBUILD_INTERVAL_MINUTES" };
  }
  const schedule = readRebuildSchedule(netlifyTomlPath);
  if (schedule === undefined) return { minutes: DEFAULT_INTERVAL_MINUTES, source: "default" };
  return { minutes: scheduleToMinutes(schedule), source: "netlify.toml" };
}

function expandField(field: string, min: number, max: number, schedule: string): number[] {
  const values = new Set<number>();
  for (const item of field.split(",")) {
    const match = /^(\*|\d+(?:-\d+)?)(?:\/(\d+))?$/.exec(item);
    if (!match) throw unsupported(schedule, `cannot read "${item}"`);
    const [, range = "*", stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    const bounds = range === "*" ? [min, max] : range.split("-").map(Number);
    const from = bounds[0] ?? min;
    // "5/15" means every 15 from 5 to the end of the range, as in Vixie cron.
    const to = bounds[1] ?? (stepText === undefined ? from : max);
    if (from < min || to > max || from > to || step < 1) {
      throw unsupported(schedule, `"${item}" is outside ${min}-${max}`);
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

function unsupported(schedule: string, reason: string): ConfigError {
  return new ConfigError(
    `netlify.toml: rebuild schedule "${schedule}" is not supported (${reason}); ` +
      "set REBUILD_INTERVAL_MINUTES to the interval in minutes.",
  );
}
