import type { ApiConfig } from "../config/api.ts";
import { calendarVersions, eventPairs, type Pair } from "./list-versions.ts";
import type { ListPage, PortalClient } from "./portal-client.ts";

/**
 * Collects the list pages the build's fetch reads (PortalClient's
 * `onListPage`) into what the build state records: per list its pages'
 * validators, per calendar the [id, version] pairs of each page.
 */

export interface RecordedPage {
  /** The page's URL relative to EVENT_API_URL (null when elsewhere): no host is published. */
  readonly path: string | null;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** Items on the page: counted paging needs the running total past an unchanged page. */
  readonly items: number;
}

export interface RecordedCalendar {
  readonly pages: readonly RecordedPage[];
  /** Per page, the [id, version] pairs of its events. */
  readonly pairs: readonly (readonly Pair[])[];
}

export interface PortalLists {
  readonly calendarList: {
    readonly pages: readonly RecordedPage[];
    /** id -> version of the calendars the site publishes. */
    readonly calendars: Readonly<Record<string, string>>;
  };
  readonly calendars: Readonly<Record<string, RecordedCalendar>>;
}

export class ListRecorder {
  readonly #config: ApiConfig;
  readonly #lists = new Map<string, ListPage[]>();

  constructor(config: ApiConfig) {
    this.#config = config;
  }

  readonly record = (page: ListPage): void => {
    const pages = this.#lists.get(page.list);
    if (pages) pages.push(page);
    else this.#lists.set(page.list, [page]);
  };

  /** Null when the calendar list was not read (nothing fetched, or a failed fetch). */
  result(client: Pick<PortalClient, "endpoint" | "http">): PortalLists | null {
    const listUrl = (...segments: string[]) => client.http.display(client.endpoint(...segments));
    const calendarPages = this.#lists.get(listUrl("event-calendars"));
    if (!calendarPages) return null;
    const versions = calendarVersions(
      calendarPages.flatMap((page) => page.items),
      this.#config,
    );
    const calendars: Record<string, RecordedCalendar> = {};
    for (const id of Object.keys(versions)) {
      const pages = this.#lists.get(listUrl("event-calendar", id, "events")) ?? [];
      calendars[id] = {
        pages: pages.map((page) => this.#recorded(page)),
        pairs: pages.map((page) => eventPairs(page.items, this.#config)),
      };
    }
    return {
      calendarList: {
        pages: calendarPages.map((page) => this.#recorded(page)),
        calendars: versions,
      },
      calendars,
    };
  }

  #recorded(page: ListPage): RecordedPage {
    return {
      path: relativeToApi(page.url, this.#config.baseUrl),
      etag: page.etag,
      lastModified: page.lastModified,
      items: page.items.length,
    };
  }
}

export function relativeToApi(url: string, baseUrl: string): string | null {
  const prefix = `${baseUrl}/`;
  return url.startsWith(prefix) ? url.slice(prefix.length) : null;
}
