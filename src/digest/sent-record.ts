import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * What `npm run send-digest` sent, by Message-ID (digest-message.ts: one
 * per week, scope and list of recipients), kept in EVENT_API_CACHE_DIR so
 * that a run retried or started twice in the same week sends nothing the
 * second time. Written only once the SMTP server took the message, and
 * atomically (a file renamed into place), so a failed run leaves it as it
 * was. Where no such folder lasts between runs (a Netlify function), the
 * schedule runs the sender once a week instead, and the Message-ID lets mail
 * clients that keep one copy per ID show a repeat once.
 */

export interface SentEntry {
  readonly messageId: string;
  /** The week's first day (yyyy-mm-dd). */
  readonly week: string;
  /** When the SMTP server took it (ISO 8601, UTC). */
  readonly at: string;
}

/** A year of weekly digests for a few scopes and lists: older entries are of no use. */
const KEEP = 200;

export function sentRecordPath(cacheDir: string): string {
  return join(cacheDir, "digest", "sent.json");
}

/** The entries of the record; none when there is no record (or an unreadable one: it is rewritten). */
export async function readSentRecord(file: string): Promise<SentEntry[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return [];
  }
  const sent = (json as { sent?: unknown } | null)?.sent;
  if (!Array.isArray(sent)) return [];
  return sent.filter(
    (entry): entry is SentEntry =>
      typeof entry?.messageId === "string" &&
      typeof entry?.week === "string" &&
      typeof entry?.at === "string",
  );
}

export async function addSentEntry(file: string, entry: SentEntry): Promise<void> {
  const sent = [...(await readSentRecord(file)), entry].slice(-KEEP);
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify({ version: 1, sent }, null, 1)}\n`);
  await rename(partial, file);
}
