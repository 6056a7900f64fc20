import { pathToFileURL } from "node:url";
import { calendarIdOf, PortalClient } from "../api/portal-client.ts";
import type { WireRecord } from "../api/wire.ts";
import { readApiConfig } from "../config/api.ts";
import { readSiteConfig } from "../config/site.ts";
import { unmappedFields } from "../model/field-map.ts";
import { normalizeCalendar } from "../model/normalize-calendar.ts";
import { normalizeEvent } from "../model/normalize-event.ts";
import type { CalendarEvent } from "../model/types.ts";

export interface Output {
  write(text: string): unknown;
}

/**
 * `npm run check-api`: checks URL and token, lists calendars with event
 * counts, shows one normalized sample event, the wire fields nothing reads,
 * and the problems found. Resolves to the exit code: 0 only when the API is
 * usable. Expected failures print one line, never a stack trace.
 */
export async function checkApi(env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const say = (line = ""): void => void out.write(`${line}\n`);
  let client: PortalClient | null = null;
  try {
    const config = readApiConfig(env);
    const site = readSiteConfig(env);
    const options = { fieldMap: config.fieldMap, defaultTimeZone: site.timeZone };
    client = new PortalClient(config);
    const auth =
      config.auth.kind === "bearer" ? "bearer" : `${config.auth.kind}:${config.auth.name}`;
    say(`API: ${config.baseUrl} (token sent as ${auth})`);

    const problems: string[] = [];
    const unmapped = new Set<string>();
    const note = (kind: string, record: WireRecord, which: "calendar" | "event") => {
      for (const field of unmappedFields(record, which, config.fieldMap))
        unmapped.add(`${kind}.${field}`);
    };

    const records = await client.listCalendars();
    const wanted = config.calendars;
    const selected = wanted
      ? records.filter((r) => wanted.includes(calendarIdOf(r, config) ?? ""))
      : records;
    for (const id of wanted ?? []) {
      if (!selected.some((r) => calendarIdOf(r, config) === id)) {
        problems.push(
          `calendar "${id}" (EVENT_API_CALENDARS) is not available to this organization`,
        );
      }
    }
    say(
      `Token accepted: ${records.length} calendars available${wanted ? `, ${selected.length} selected` : ""}.`,
    );
    if (selected.length === 0) {
      say(
        "check-api: no calendars to publish; check EVENT_API_CALENDARS and the token's organization.",
      );
      return 1;
    }

    let sample: CalendarEvent | null = null;
    let usable = 0;
    let listed = 0;
    for (const record of selected) {
      note("calendar", record, "calendar");
      const calendar = normalizeCalendar(record, options);
      if (!calendar.ok) {
        problems.push(`a calendar record was skipped (${calendar.reason})`);
        continue;
      }
      const events = await client.listEvents(calendar.value.id);
      listed += events.length;
      say(
        `  ${calendar.value.id.padEnd(24)} ${String(events.length).padStart(5)} events  ${calendar.value.name}`,
      );
      for (const event of events) {
        note("event", event, "event");
        const result = normalizeEvent(event, null, calendar.value, options);
        if (!result.ok) {
          problems.push(
            `calendar "${calendar.value.id}", event ${JSON.stringify(event.id ?? "?")}: ${result.reason}`,
          );
          continue;
        }
        usable++;
        if (!sample) {
          const details = await client.getDetails(calendar.value.id, result.value.id);
          if (details) {
            note("details", details, "event");
            const full = normalizeEvent(event, details, calendar.value, options);
            sample = full.ok ? full.value : result.value;
          }
        }
      }
    }

    if (sample) {
      say();
      say("Sample event, as published:");
      say(JSON.stringify(sample, null, 2));
    }
    say();
    say(
      unmapped.size > 0
        ? `Wire fields not used (map them with EVENT_API_FIELD_MAP if they matter): ${[...unmapped].sort().join(", ")}`
        : "Every wire field is used.",
    );
    say(problems.length > 0 ? `Problems (${problems.length}):` : "No problems found.");
    for (const problem of problems.slice(0, 50)) say(`  - ${problem}`);
    if (problems.length > 50) say(`  ... and ${problems.length - 50} more`);
    if (listed > 0 && usable === 0) {
      say(
        "check-api: no event could be read; set EVENT_API_FIELD_MAP (see docs/configuration.md).",
      );
      return 1;
    }
    say(`OK: ${usable} of ${listed} events can be published.`);
    return 0;
  } catch (error) {
    say(`check-api: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await client?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await checkApi(process.env, process.stdout);
}
