import { hash as oneShotHash } from "node:crypto";
import { join } from "node:path";
import { detailsDigest } from "../api/details-digest.ts";
import { codeFingerprint } from "../code-fingerprint.ts";
import { count } from "../metrics.ts";
import { eventTextDigest, rememberEventDigest } from "../model/event-digest.ts";
import { KeptMap } from "../model/kept-map.ts";
import type { KeptReads } from "../model/kept-reads.ts";
import type { Normalized, NormalizeOptions } from "../model/normalize-calendar.ts";
import { normalizeEvent } from "../model/normalize-event.ts";
import type { Calendar, CalendarEvent, PortalSnapshot } from "../model/types.ts";
import type { WireRecord } from "../model/wire.ts";
import type { NormalizeAside } from "./normalize-aside.ts";
import { SharedValues } from "./shared-values.ts";

/**
 * normalizeEvent's answer as kept, with the event's digest (eventDigest)
 * when it is an event: read back with it, an unchanged event is not written
 * out and hashed again by the outputs that name it among their inputs.
 */
type Entry = Normalized<CalendarEvent> & { readonly digest?: string };

/**
 * The last good snapshot as kept (EVENT_API_ALLOW_STALE): the snapshot with
 * its events named by their keys in the normalized events' file rather than
 * written out a second time.
 */
export interface KeptSnapshot extends Omit<PortalSnapshot, "events"> {
  readonly eventKeys: readonly string[];
}

/**
 * Normalized events kept between builds. Normalizing is pure: the same list
 * record, details record and calendar, under the same settings and the same
 * normalizer, always give the same event; so an event the portal did not
 * change is read back instead of sanitized and parsed again (at 10,000
 * events that was about 2 s of every warm build, docs/performance.md).
 *
 * Entries are keyed by a hash of the three records (the details by their
 * response body's digest where the client kept one), in a KeptMap whose code
 * is the settings and the code's fingerprint (src/code-fingerprint.ts: the
 * project's code and the installed packages' versions), so an upgrade or
 * another field map starts from scratch; a build that changed a few events
 * adds a line to its journal rather than writing every event again. The
 * last good snapshot names its events by these keys (`keep`, `keptSnapshot`).
 */
export class NormalizeMemo {
  readonly #path: string;
  readonly #kept: KeptMap<Entry>;
  readonly #redact: (text: string) => string;
  /** This build's events by the key of their entry: what `keep` names them by. */
  readonly #keys = new Map<CalendarEvent, string>();
  /**
   * This build's answers by the list record they were asked with. With share
   * cards on, each event is asked twice, as its details arrive (loadSnapshot's
   * onEvent) and again with the whole snapshot: the second time, the same
   * records are answered without their key, which is the two records written
   * out and hashed (0.07 s of one edited 10,000-event build, in a profile:
   * docs/performance.md, What changed, item 64).
   */
  readonly #asked = new WeakMap<WireRecord, Asked>();
  /** The parts events have in common, each held once (read back or made, the same). */
  readonly #shared = new SharedValues();

  private constructor(path: string, kept: KeptMap<Entry>, redact: (text: string) => string) {
    this.#path = path;
    this.#kept = kept;
    this.#redact = redact;
  }

  /**
   * `source`: a source of a site of several keeps its own (they share one
   * cache folder). `redact`: the client's, so no file holds the token.
   */
  static load(
    cacheDir: string,
    options: NormalizeOptions,
    redact: (text: string) => string,
    source?: string,
    reads?: KeptReads,
  ): NormalizeMemo {
    const path = memoPath(cacheDir, source);
    const code = hash(
      JSON.stringify([options.fieldMap, options.defaultTimeZone, codeFingerprint()]),
    );
    return new NormalizeMemo(path, KeptMap.load(path, code, isEntry, redact, reads), redact);
  }

  /** normalizeEvent, answered from the previous build when its inputs are unchanged. */
  readonly normalizeEvent = (
    listed: WireRecord,
    details: WireRecord | null,
    calendar: Pick<Calendar, "id" | "timeZone">,
    options: NormalizeOptions,
  ): Entry => {
    const known = this.#known(listed, details, calendar);
    if ("entry" in known) return known.entry;
    count("normalize.computed");
    return this.#record(known.key, normalizeEvent(listed, details, calendar, options), listed, {
      details,
      calendar,
    });
  };

  /**
   * normalizeEvent as above, a new event's normalized on `aside`'s thread:
   * what the build's thread would have spent on it, it spends on the
   * answers of the portal. Null when the thread gave no answer: the event
   * is then normalized by `normalizeEvent` when the snapshot asks for it.
   */
  normalizeAside(
    listed: WireRecord,
    details: WireRecord | null,
    calendar: Pick<Calendar, "id" | "timeZone">,
    options: NormalizeOptions,
    aside: NormalizeAside,
  ): Entry | Promise<Entry | null> {
    const known = this.#known(listed, details, calendar);
    if ("entry" in known) return known.entry;
    return aside.normalize(listed, details, calendar, options).then((entry) => {
      if (!entry) return null;
      // Asked meanwhile, or its content kept meanwhile from other records: that answer stands.
      const asked = this.#askedBefore(listed, details, calendar);
      if (asked) return asked;
      const kept = this.#kept.isKept(known.key) ? this.#kept.get(known.key) : undefined;
      if (kept) return kept;
      count("normalize.computed");
      count("normalize.computedAside");
      return this.#record(known.key, entry, listed, { details, calendar });
    });
  }

  /** The entry this build or the last made of these records, or the key to keep a new one by. */
  #known(
    listed: WireRecord,
    details: WireRecord | null,
    calendar: Pick<Calendar, "id" | "timeZone">,
  ): { readonly entry: Entry } | { readonly key: string } {
    const asked = this.#askedBefore(listed, details, calendar);
    if (asked) return { entry: asked };
    // Exactly what normalizeEvent reads: the two records and its calendar's id and zone; the
    // details by the digest of the body they were unwrapped from where the client kept one
    // (src/api/details-digest.ts; how a body unwraps is the field map, in the memo's code),
    // in an array, which no details record is, so that no record reads as a digest.
    const digest = details ? detailsDigest(details) : undefined;
    const key = hash(
      JSON.stringify([
        calendar.id,
        calendar.timeZone,
        listed,
        digest === undefined ? details : [digest],
      ]),
    );
    count("normalize.keyed");
    const entry = this.#kept.get(key);
    // Asked again in this build with other records of the same content: not counted again.
    if (entry && this.#kept.isKept(key)) return { entry };
    if (entry) {
      count("normalize.reused");
      return { entry: this.#record(key, entry, listed, { details, calendar }) };
    }
    return { key };
  }

  /** The entry given for these very records earlier in this build. */
  #askedBefore(
    listed: WireRecord,
    details: WireRecord | null,
    calendar: Pick<Calendar, "id" | "timeZone">,
  ): Entry | undefined {
    const asked = this.#asked.get(listed);
    return asked?.details === details &&
      asked.calendarId === calendar.id &&
      asked.timeZone === calendar.timeZone
      ? asked.entry
      : undefined;
  }

  /** Keeps a normalized entry (`made` by normalizeEvent, here or aside, or read back) for the records it was made of. */
  #record(
    key: string,
    made: Entry,
    listed: WireRecord,
    of: {
      readonly details: WireRecord | null;
      readonly calendar: Pick<Calendar, "id" | "timeZone">;
    },
  ): Entry {
    let entry = made;
    if (entry.ok) {
      // Before anyone else holds it (the snapshot freezes its events).
      this.#shared.shareParts(entry.value);
      if (entry.digest === undefined) entry = { ...entry, digest: this.#digest(entry.value) };
      else rememberEventDigest(entry.value, entry.digest);
    }
    this.#kept.set(key, entry);
    if (entry.ok) this.#keys.set(entry.value, key);
    this.#asked.set(listed, {
      details: of.details,
      calendarId: of.calendar.id,
      timeZone: of.calendar.timeZone,
      entry,
    });
    return entry;
  }

  /**
   * The digest of the event as the next build reads it back: written out
   * as the kept map writes it, redacted (shared parts write out as the
   * event's own did). The same as eventDigest's unless the event held the
   * token, which no file may hold: this build's outputs then digest it
   * themselves.
   */
  #digest(event: CalendarEvent): string {
    const text = JSON.stringify(event);
    const kept = this.#redact(text);
    const digest = eventTextDigest(kept);
    if (kept === text) rememberEventDigest(event, digest);
    return digest;
  }

  /** Writes this build's entries for the next build. */
  save(): void {
    this.#kept.save();
  }

  /**
   * The snapshot to keep as the last good one, its events named by their
   * entries' keys; null if one of them was not normalized here.
   */
  keep(snapshot: PortalSnapshot): KeptSnapshot | null {
    const { events, ...rest } = snapshot;
    const eventKeys: string[] = [];
    for (const event of events) {
      const key = this.#keys.get(event);
      if (key === undefined) return null;
      eventKeys.push(key);
    }
    return { ...rest, eventKeys };
  }

  /**
   * The snapshot `keep` kept, its events read back from the entries the
   * build that kept it saved, whatever version of the code normalized them
   * (stale data is for when the portal cannot be read, an upgrade
   * included); null if one is missing (the calendars asked for, or the
   * token, changed since, and a build with the others saved its own).
   */
  keptSnapshot(kept: KeptSnapshot): PortalSnapshot | null {
    const entries = KeptMap.keptByAnyCode(this.#path, isEntry);
    const events: CalendarEvent[] = [];
    for (const key of kept.eventKeys) {
      const entry = entries.get(key);
      if (!entry?.ok) return null;
      events.push(entry.value);
    }
    const { eventKeys: _, ...rest } = kept;
    return { ...rest, events };
  }
}

/** What an event was asked with in this build, beside its list record, and the answer. */
interface Asked {
  readonly details: WireRecord | null;
  readonly calendarId: string;
  readonly timeZone: string;
  readonly entry: Entry;
}

/** The file of one portal's (or one source's) normalized events in the cache folder. */
function memoPath(cacheDir: string, source?: string): string {
  const name = source === undefined ? "" : `-${hash(source)}`;
  return join(cacheDir, `normalized-events${name}.json`);
}

/** An entry as normalizeEvent returns it: what a file of ours holds, checked only for its shape. */
function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as {
    ok?: unknown;
    value?: unknown;
    notes?: unknown;
    reason?: unknown;
    digest?: unknown;
  };
  return entry.ok === true
    ? typeof entry.value === "object" &&
        entry.value !== null &&
        Array.isArray(entry.notes) &&
        (entry.digest === undefined || typeof entry.digest === "string")
    : entry.ok === false && typeof entry.reason === "string";
}

function hash(text: string): string {
  return oneShotHash("sha1", text, "base64url");
}
