import path from "node:path";
import { pathToFileURL } from "node:url";
import { formatAuth } from "../api/auth.ts";
import { unwrapDetails } from "../api/details-envelope.ts";
import { calendarIdOf, eventIdOf, PortalClient } from "../api/portal-client.ts";
import { probeAuth, type Rejection } from "../check/auth-probe.ts";
import { errorBodyExcerpt } from "../check/error-body.ts";
import { evaluateRecords, type Records, type RecordsReport } from "../check/evaluate-records.ts";
import { type Evaluation, evaluateSamples, type Samples } from "../check/evaluate-samples.ts";
import { formatPaging, inspectList, type ListShape } from "../check/paging-probe.ts";
import {
  envFileBlock,
  formatFieldMap,
  settingsInEffect,
  shellBlock,
} from "../check/settings-block.ts";
import { sourceBlock } from "../check/source-block.ts";
import { API_SETTINGS, type ApiConfig, readApiConfig } from "../config/api.ts";
import { ENV_FILE_SETTINGS, loadEnvFile } from "../config/env-file.ts";
import { readSiteConfig, SITE_SETTINGS, type SiteConfig } from "../config/site.ts";
import {
  type IcsSourceConfig,
  readSources,
  SOURCES_SETTINGS,
  type SourcesConfig,
} from "../config/sources.ts";
import { AuthError } from "../errors.ts";
import type { FieldMap } from "../model/field-map.ts";
import { normalizeCalendar } from "../model/normalize-calendar.ts";
import { proposeFieldMap, type UnmatchedEntry } from "../model/propose-field-map.ts";
import type { WireRecord } from "../model/wire.ts";
import { loadIcsSource } from "../sources/ics-source.ts";
import { defineCommand, readCommandLine } from "./command-line.ts";

export interface Output {
  write(text: string): unknown;
}

/** Details fetched per calendar, and in all, to judge what the details records carry. */
const DETAILS_PER_CALENDAR = 3;
const DETAILS_TOTAL = 12;

/**
 * `npm run check-api`: checks URL and token, lists calendars with event
 * counts, shows one event as it will be published, names the wire fields
 * nothing reads, and finds the settings that make the portal usable: another
 * token placement after a 401/403, counted paging the portal does not
 * announce, and a field map from the names and values it saw. Then prints
 * them as one block to paste (shell and .env form). When the settings in
 * effect work, it reads every listed event's details as a build does and
 * says of each record the build will skip or cut what it will do
 * (src/check/evaluate-records.ts). Resolves to the exit code: 0 only when
 * the settings in effect make the API usable. Expected
 * failures print one line, never a stack trace; the token is never shown.
 */
export async function checkApi(env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const say = (line = ""): void => void out.write(`${line}\n`);
  try {
    const sources = readSources(env);
    const site = readSiteConfig(env);
    if (sources) return await checkSourcesApi(sources, site, say);
    return await checkPortalApi(readApiConfig(env), site, say, {
      label: "check-api",
      tokenSetting: "EVENT_API_TOKEN",
      problem: (problem) => problem,
      propose: (changes, state) => {
        const settings = settingsInEffect(env, changes);
        say();
        say(
          state === "failing"
            ? "Settings found so far (check-api still fails with them, see below); shell form, then .env form:"
            : state === "suggested"
              ? "Suggested settings (those in effect work too); shell form, then .env form:"
              : "Settings under which check-api passes; paste them into the shell, or save the second form as .env in the project folder:",
        );
        say();
        say(shellBlock(settings));
        say();
        say(envFileBlock(settings));
        say();
      },
    });
  } catch (error) {
    say(`check-api: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** How one portal's check speaks: of the site's portal, or of one source of several. */
interface Presentation {
  /** What starts its closing line: "check-api", or "check-api: source arts". */
  readonly label: string;
  /** Where its token is set: EVENT_API_TOKEN, or the source's tokenEnv. */
  readonly tokenSetting: string;
  /** A problem's line. */
  readonly problem: (problem: string) => string;
  /** Prints the settings that make it work: env lines, or the source's block. */
  readonly propose: (
    changes: Readonly<Record<string, string | null>>,
    state: "failing" | "suggested" | "passing",
  ) => void;
}

/**
 * A site of several sources (EVENT_SOURCES_FILE, docs/sources.md): each
 * source checked in turn, a portal as the site's one portal is, a feed by
 * reading it as the build does; what a portal needs is proposed as its
 * block of the file. Exit 0 only when every source works.
 */
async function checkSourcesApi(
  sources: SourcesConfig,
  site: SiteConfig,
  say: (line?: string) => void,
): Promise<number> {
  const failing: string[] = [];
  for (const source of sources.sources) {
    say();
    say(`Source ${source.id} (${source.name}):`);
    const label = `check-api: source ${source.id}`;
    const code =
      source.kind === "ics"
        ? await checkFeedApi(source, site, say, label)
        : await checkPortalApi(source.api, site, say, {
            label,
            tokenSetting: String(source.entry.tokenEnv),
            problem: (problem) => `source ${source.id}: ${problem}`,
            propose: (changes, state) => {
              say();
              say(
                state === "failing"
                  ? `Its block found so far (it still fails with it, see below), for ${sources.file}:`
                  : state === "suggested"
                    ? `Its suggested block (the one in effect works too), for ${sources.file}:`
                    : `Its block under which it passes; replace its block in ${sources.file} with:`,
              );
              say();
              say(sourceBlock(source.entry, changes));
              say();
            },
          });
    if (code !== 0) failing.push(source.id);
  }
  say();
  if (failing.length === 0) {
    say(`OK: every source works (${sources.sources.length}).`);
    return 0;
  }
  say(
    `check-api: ${failing.length} of ${sources.sources.length} sources do not work yet: ${failing.join(", ")} (see each one's lines above).`,
  );
  return 1;
}

/** A partner's feed read as the build reads it (its own fetch, no last good data): its dates and warnings. */
async function checkFeedApi(
  source: IcsSourceConfig,
  site: SiteConfig,
  say: (line?: string) => void,
  label: string,
): Promise<number> {
  try {
    const { snapshot } = await loadIcsSource(
      { ...source, allowStaleMs: null },
      {
        defaultTimeZone: site.timeZone,
        now: site.now.toJSDate(),
        sink: null,
        pastDays: site.pastDays,
      },
    );
    say(`Feed: ${snapshot.events.length} dates to publish.`);
    for (const warning of snapshot.warnings.slice(0, 50))
      say(`  - source ${source.id}: ${warning}`);
    if (snapshot.events.length === 0) {
      say(
        `${label}: the feed holds no date to publish (from SITE_PAST_DAYS back to a year ahead).`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    say(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function checkPortalApi(
  initial: ApiConfig,
  site: SiteConfig,
  say: (line?: string) => void,
  how: Presentation,
): Promise<number> {
  let client: PortalClient | null = null;
  try {
    let config = initial;
    const changes: Record<string, string | null> = {};
    say(`API: ${config.baseUrl} (token sent as ${formatAuth(config.auth)})`);

    client = new PortalClient(config);
    let shape: ListShape;
    try {
      shape = await inspectList(client.http, client.endpoint("event-calendars"), config);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const rejected = `The portal rejected the token (HTTP ${error.status}) sent as EVENT_API_AUTH=${formatAuth(config.auth)}`;
      say(`${rejected}; trying the other common placements with the same token, each once.`);
      // The portal's own words first: they often say whether the token or its place is wrong.
      const redact = client.http.redact;
      const first = errorBodyExcerpt(error.body, redact);
      if (first) say(`  The portal said: ${first}`);
      const probe = await probeAuth(config, error.challenge);
      if (!probe.found) {
        for (const line of otherAnswers(probe.rejections, first, error.status, redact)) say(line);
        say(
          `${how.label}: ${rejected} and in every other common placement (${probe.tried.join(", ")}): the token itself is likely wrong, expired or revoked. Ask the Organization Administrator for a new one (${how.tokenSetting}).`,
        );
        return 1;
      }
      const auth = formatAuth(probe.found);
      say(`  The portal accepts the token as EVENT_API_AUTH=${auth}.`);
      changes.EVENT_API_AUTH = auth;
      config = { ...config, auth: probe.found };
      await client.close();
      client = new PortalClient(config);
      shape = await inspectList(client.http, client.endpoint("event-calendars"), config);
    }
    const adopt = async (what: string, found: ListShape): Promise<void> => {
      say(describeList(what, found));
      if (!found.found || !client) return;
      const paging = formatPaging(found.found);
      say(`  The portal pages by parameters it does not announce: EVENT_API_PAGING=${paging}.`);
      changes.EVENT_API_PAGING = paging;
      config = { ...config, paging: found.found };
      await client.close();
      client = new PortalClient(config);
    };
    await adopt("Calendar list", shape);

    const records = await client.listCalendars();
    const wanted = config.calendars;
    const selected = wanted
      ? records.filter((r) => wanted.includes(calendarIdOf(r, config) ?? ""))
      : records;
    const problems: string[] = [];
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
        `${how.label}: no calendars to publish; check EVENT_API_CALENDARS and the token's organization.`,
      );
      return 1;
    }

    const firstId = selected.map((r) => calendarIdOf(r, config)).find((id) => id !== null);
    if (firstId) {
      const events = client.endpoint("event-calendar", firstId, "events");
      await adopt(`Event list of "${firstId}"`, await inspectList(client.http, events, config));
    }
    const samples = await collectSamples(client, config, selected, say);
    const options = { fieldMap: config.fieldMap, defaultTimeZone: site.timeZone };
    const now = evaluateSamples(samples, options);

    // Propose a field map when something is unread and something is missing.
    const proposal = proposeFieldMap(
      {
        calendars: samples.calendars.map((c) => c.record),
        events: [
          ...samples.details.map(({ listed, details }) => ({ listed, details })),
          ...samples.calendars.flatMap((c) =>
            c.events.slice(0, 20).map((listed) => ({ listed, details: null })),
          ),
        ],
      },
      config.fieldMap,
    );
    let final: Evaluation = now;
    // Entries that match nothing are never carried over: cleaning them up is
    // proposed even when nothing else is, unless the result reads less.
    const { unmatched } = proposal;
    let adopted = false;
    if ((proposal.proposals.length > 0 && now.unread.length > 0) || unmatched.length > 0) {
      const proposed = evaluateSamples(samples, { ...options, fieldMap: proposal.map });
      if (better(proposed, now) || (unmatched.length > 0 && !worse(proposed, now))) {
        adopted = true;
        final = proposed;
        changes.EVENT_API_FIELD_MAP = formatFieldMap(proposal.map);
      }
    }
    if (unmatched.length > 0) {
      say();
      say("EVENT_API_FIELD_MAP entries that match no field of the sampled records:");
      for (const entry of unmatched) say(describeUnmatched(entry, adopted));
    }
    if (adopted && proposal.proposals.length > 0) {
      say();
      say("Proposed field map, from the wire names and values seen:");
      for (const p of proposal.proposals) say(`  ${p.kind}.${p.field} <- ${p.wire} (${p.reason})`);
    }
    const changed = Object.keys(changes).length > 0;

    if (final.sample) {
      say();
      say(
        changed
          ? "Sample event, as published with the settings below:"
          : "Sample event, as published:",
      );
      say(JSON.stringify(final.sample, null, 2));
    }
    say();
    say(
      final.unread.length > 0
        ? `Wire fields not used (map them with EVENT_API_FIELD_MAP if they matter): ${final.unread.join(", ")}`
        : "Every wire field is used.",
    );
    // Why the settings in effect fail, whatever the block fixes.
    const reasons = [
      ...(changes.EVENT_API_AUTH
        ? ["the portal expects the token elsewhere (EVENT_API_AUTH)"]
        : []),
      ...(changes.EVENT_API_PAGING
        ? ["lists cannot be read whole without paging parameters (EVENT_API_PAGING)"]
        : []),
      ...now.failures,
    ];
    // Settings that work: every record as the build will treat it, its details included.
    const judged =
      reasons.length === 0 ? await readRecords(client, config, samples, options, say) : null;
    const listed = [...problems, ...(judged ? judged.lines : final.problems)];
    const clean = now.failures.length === 0 && !changed;
    say(
      listed.length > 0
        ? `Problems (${listed.length}):`
        : clean
          ? "No problems found."
          : "Every record can be read.",
    );
    for (const problem of listed.slice(0, 50)) say(`  - ${how.problem(problem)}`);
    if (listed.length > 50) say(`  ... and ${listed.length - 50} more`);
    if (changed) {
      how.propose(
        changes,
        final.failures.length > 0 ? "failing" : reasons.length === 0 ? "suggested" : "passing",
      );
    }
    if (judged) {
      if (judged.listed > 0 && judged.publishable === 0) {
        say(`${how.label}: no listed event can be published; the first: ${judged.lines[0]}.`);
        return 1;
      }
      say(`OK: ${judged.publishable} of ${judged.listed} events can be published.`);
      return 0;
    }
    say("The settings in effect fail:");
    for (const reason of reasons) say(`  - ${reason}`);
    if (final.failures.length === 0) {
      say(
        `${how.label}: the settings in effect do not work yet; with the settings above, ${final.usable} of ${final.listed} events can be published: apply them and run npm run check-api again.`,
      );
      return 1;
    }
    if (changed) {
      say("With the settings above, still:");
      for (const failure of final.failures) say(`  - ${failure}`);
    }
    say(`${how.label}: ${final.failures[0]}`);
    return 1;
  } catch (error) {
    say(`${how.label}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await client?.close();
  }
}

/** Lists every selected calendar's events and fetches some details, saying what it saw. */
async function collectSamples(
  client: PortalClient,
  config: ApiConfig,
  selected: readonly WireRecord[],
  say: (line?: string) => void,
): Promise<Samples> {
  const calendars: Array<{ record: WireRecord; events: WireRecord[] }> = [];
  const details: Array<{ calendar: number; listed: WireRecord; details: WireRecord }> = [];
  let envelope: string | null | undefined;
  for (const record of selected) {
    const id = calendarIdOf(record, config);
    const events = id === null ? [] : await client.listEvents(id);
    const index = calendars.push({ record, events }) - 1;
    const normalized = normalizeCalendar(record, {
      fieldMap: config.fieldMap,
      defaultTimeZone: "UTC",
    });
    const name = normalized.ok ? normalized.value.name : "(unreadable calendar record)";
    say(`  ${(id ?? "?").padEnd(24)} ${String(events.length).padStart(5)} events  ${name}`);
    if (id === null) continue;
    let taken = 0;
    for (const event of events) {
      if (taken >= DETAILS_PER_CALENDAR || details.length >= DETAILS_TOTAL) break;
      const eventId = eventIdOf(event, config);
      if (eventId === null) continue;
      if (envelope === undefined) {
        const url = client.endpoint("event-calendar", id, "event", eventId, "details");
        const raw = await client.http.getJson(url);
        const body = raw.body && typeof raw.body === "object" ? (raw.body as WireRecord) : {};
        envelope = unwrapDetails(body, config.fieldMap).envelope;
      }
      const found = await client.getDetails(id, eventId);
      taken++;
      if (found) details.push({ calendar: index, listed: event, details: found });
    }
  }
  if (envelope !== undefined) {
    say(
      envelope
        ? `Event details: one record wrapped in "${envelope}", read inside it.`
        : "Event details: one bare record.",
    );
  }
  return { calendars, details };
}

/**
 * Every listed event's details, read as a build reads them (the same client,
 * the response cache a build keeps: details unchanged since the last build
 * are not asked for again), and judged as the build will judge them.
 */
async function readRecords(
  client: PortalClient,
  config: ApiConfig,
  samples: Samples,
  options: { readonly fieldMap: FieldMap; readonly defaultTimeZone: string },
  say: (line?: string) => void,
): Promise<RecordsReport> {
  const events = samples.calendars.reduce((sum, calendar) => sum + calendar.events.length, 0);
  say();
  say(`Reading the details of every listed event (${events}), as a build does.`);
  const records: Records = await Promise.all(
    samples.calendars.map(async ({ record, events }) => {
      const calendarId = calendarIdOf(record, config);
      return {
        record,
        events: await Promise.all(
          events.map(async (listed) => {
            const eventId = eventIdOf(listed, config);
            if (calendarId === null || eventId === null) return { listed, details: null };
            const details = await client.getDetails(calendarId, eventId, listed);
            return details ? { listed, details } : { listed, details: null, gone: true };
          }),
        ),
      };
    }),
  );
  return evaluateRecords(records, options);
}

/**
 * The portal's answers to other placements that differ from its first one
 * and came back to one or two placements only: a portal that says "token not
 * valid" where it reads the token and "token required" everywhere else shows
 * where it looks, and that the token itself is wrong. The answer most
 * placements got says nothing new and is left out.
 */
function otherAnswers(
  rejections: readonly Rejection[],
  first: string | null,
  firstStatus: number | undefined,
  redact: (text: string) => string,
): string[] {
  const answers = new Map<string, string[]>();
  for (const { placement, status, body } of rejections) {
    const said = errorBodyExcerpt(body, redact);
    if (said === first && status === firstStatus) continue;
    const answer = `(HTTP ${status})${said ? `: ${said}` : ""}`;
    answers.set(answer, [...(answers.get(answer) ?? []), placement]);
  }
  return [...answers]
    .filter(([, placements]) => placements.length <= 2)
    .slice(0, 3)
    .map(
      ([answer, placements]) =>
        `  Sent as ${placements.join(" and ")}, the portal answered differently ${answer}`,
    );
}

function describeList(what: string, shape: ListShape): string {
  const where = shape.envelope ? `the list under "${shape.envelope}"` : "a bare JSON array";
  const next = shape.how ? `next page from ${shape.how}` : "no next page announced";
  const count = `${shape.count}${shape.total !== null ? ` of ${shape.total}` : ""} on the first page`;
  return `${what}: ${where}, ${next}, ${count}.`;
}

/** What to do about an entry that matches nothing, said where the settings block is or is not. */
function describeUnmatched(entry: UnmatchedEntry, adopted: boolean): string {
  const name = `  ${entry.kind}.${entry.field} = ${JSON.stringify(entry.wire)}`;
  if (entry.rewrite === null) {
    return adopted
      ? `${name}: left out of the settings below.`
      : `${name}: remove it from EVENT_API_FIELD_MAP.`;
  }
  const envelope = entry.wire.slice(0, entry.wire.indexOf("."));
  const rewrite = JSON.stringify(entry.rewrite);
  const why = `the records have a "${envelope}" field of their own, which the path reads into`;
  return adopted
    ? `${name}: ${why}; written as ${rewrite} in the settings below.`
    : `${name}: ${why}; rewrite it as ${rewrite} in EVENT_API_FIELD_MAP.`;
}

/** More failures, or as many with fewer events readable. */
function worse(proposed: Evaluation, current: Evaluation): boolean {
  if (proposed.failures.length !== current.failures.length) {
    return proposed.failures.length > current.failures.length;
  }
  return proposed.usable < current.usable;
}

/** Fewer failures, or as many with more events readable. */
function better(proposed: Evaluation, current: Evaluation): boolean {
  if (proposed.failures.length !== current.failures.length) {
    return proposed.failures.length < current.failures.length;
  }
  return (
    proposed.usable > current.usable || proposed.emptyOptional.length < current.emptyOptional.length
  );
}

const CHECK_API = defineCommand({
  run: "npm run check-api",
  summary:
    "Checks the API settings (or each source of EVENT_SOURCES_FILE) and finds the ones a differing portal needs (token placement, paging, field map), printed as one block to paste (or as the source's block of the file); names each record the build will skip or cut; exits 0 only when the settings in effect work.",
  options: {},
  settings: [...API_SETTINGS, ...SOURCES_SETTINGS, ...SITE_SETTINGS, ...ENV_FILE_SETTINGS],
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  readCommandLine(CHECK_API);
  try {
    const loaded = loadEnvFile(process.env);
    if (loaded.file && loaded.applied.length + loaded.overridden.length > 0) {
      const name = path.relative(process.cwd(), loaded.file) || loaded.file;
      const overridden =
        loaded.overridden.length > 0
          ? `; the environment wins for ${loaded.overridden.join(", ")}`
          : "";
      process.stdout.write(
        `Settings read from ${name}: ${loaded.applied.join(", ")}${overridden}.\n`,
      );
    }
    process.exitCode = await checkApi(process.env, process.stdout);
  } catch (error) {
    process.stdout.write(`check-api: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
