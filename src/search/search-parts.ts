import type { SearchRecord } from "./search-records.ts";

/**
 * The search index is built in parts, each a Pagefind index of its own that
 * the browser merges (src/site/browser/search.ts): a changed build indexes
 * only the parts whose records changed, and no Pagefind process ever holds
 * more than one part (docs/site.md, "Search and filters"; docs/performance.md,
 * "Search index"). Pure: the same records give the same parts.
 *
 * A part is the events that start in one UTC month: the first seven
 * characters of the record's sort key, which begins with the start instant
 * in UTC. So the parts are consecutive runs of the site's order, and the
 * browser can put merged results in that order from each result's part and
 * its place within the part (Pagefind sorts within one index only). Time,
 * not calendars: events leave the site's window and arrive at its far end
 * every day, in every calendar, so parts by calendar would all change every
 * day, while parts by month change at the two ends and where an event was
 * edited.
 *
 * A month with more than `maxRecords` events is cut into equal runs of the
 * site's order (`2026-03-01`, `2026-03-02`...), each at most `maxRecords`:
 * Pagefind's memory grows with the records of one index (about 55 MB per
 * 1,000 records of the benchmark's portal), and this bounds it. An event
 * added to or removed from such a month moves the cuts, so all of that
 * month's runs are indexed again; the other months are not.
 */

/** At most this many records in one part (docs/performance.md, "Search index"). */
export const RECORDS_PER_PART = 10_000;

export interface SearchPart {
  /** The part's name: its folder under the index and the prefix of its result ids. */
  readonly key: string;
  /** In the order they were given (the site's order): Pagefind numbers pages in that order. */
  readonly records: readonly SearchRecord[];
  /** First and last day (yyyy-mm-dd, SITE_TIMEZONE) any of its events occupies: the browser skips parts outside a search's days. */
  readonly firstDay: string;
  readonly lastDay: string;
}

/** The parts, in the site's order (the order of their events' starts). */
export function searchParts(
  records: readonly SearchRecord[],
  options: { readonly maxRecords?: number } = {},
): SearchPart[] {
  const maxRecords = Math.max(1, options.maxRecords ?? RECORDS_PER_PART);
  const months = new Map<string, SearchRecord[]>();
  for (const record of records) {
    const month = startMonth(record);
    const list = months.get(month);
    if (list) list.push(record);
    else months.set(month, [record]);
  }
  const parts: SearchPart[] = [];
  for (const month of [...months.keys()].sort(compareBytes)) {
    const list = months.get(month) ?? [];
    if (list.length <= maxRecords) {
      parts.push(part(month, list));
      continue;
    }
    // Cut in Pagefind's own order of sort values (bytes of UTF-8), so each
    // run is a consecutive run of what Pagefind sorts within a part.
    const sorted = list
      .map((record) => ({ record, bytes: Buffer.from(sortValue(record), "utf8") }))
      .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
      .map(({ record }) => record);
    const runs = Math.ceil(list.length / maxRecords);
    const runOf = new Map<SearchRecord, number>();
    for (let run = 0; run < runs; run++) {
      const from = Math.floor((run * sorted.length) / runs);
      const to = Math.floor(((run + 1) * sorted.length) / runs);
      for (const record of sorted.slice(from, to)) runOf.set(record, run);
    }
    for (let run = 0; run < runs; run++) {
      parts.push(
        part(
          `${month}-${String(run + 1).padStart(2, "0")}`,
          list.filter((record) => runOf.get(record) === run),
        ),
      );
    }
  }
  return parts;
}

function part(key: string, records: readonly SearchRecord[]): SearchPart {
  let firstDay = "";
  let lastDay = "";
  for (const record of records) {
    for (const day of record.filters.day ?? []) {
      if (!firstDay || day < firstDay) firstDay = day;
      if (day > lastDay) lastDay = day;
    }
  }
  return { key, records, firstDay, lastDay };
}

/** The sort value the site's order uses (search-records.ts: the UTC start first). */
function sortValue(record: SearchRecord): string {
  return record.sort.start ?? "";
}

function startMonth(record: SearchRecord): string {
  return sortMonth(sortValue(record));
}

/** yyyy-mm of a record's sort value (the start in UTC); records without a start (none are made) share one part. */
export function sortMonth(sort: string): string {
  const month = sort.slice(0, 7);
  return /^\d{4}-\d{2}$/.test(month) ? month : "0000-00";
}

/** Rust compares strings by their UTF-8 bytes; so does Pagefind's sort. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
