import type { WireRecord } from "../../src/model/wire.ts";
import { wireJson } from "./hostile-records.ts";
import { type LoopbackServer, serveOnLoopback } from "./loopback-server.ts";

/*
 * A portal that serves records exactly as given, any JSON: the reference
 * portal checks its dataset (docs/dataset.md) and would refuse the records a
 * broken or hostile portal sends. It answers the three operations of
 * docs/api.md (calendars, a calendar's events, an event's details) at
 * `<origin>/v1`, each list on one page, with any token.
 */

export interface RawCalendar {
  readonly record: WireRecord;
  readonly events: readonly { readonly listed: WireRecord; readonly details: WireRecord }[];
}

export async function serveRawPortal(calendars: readonly RawCalendar[]): Promise<LoopbackServer> {
  // The id as the client asks with it (src/api/portal-client.ts): a number, or a trimmed string.
  const idOf = (record: WireRecord) =>
    typeof record.id === "number" ? String(record.id) : String(record.id).trim();
  const bodies = new Map<string, string>([
    ["/v1/event-calendars", wireJson(calendars.map((calendar) => calendar.record))],
  ]);
  for (const { record, events } of calendars) {
    const base = `/v1/event-calendar/${encodeURIComponent(idOf(record))}`;
    bodies.set(`${base}/events`, wireJson(events.map((event) => event.listed)));
    for (const { listed, details } of events) {
      // An id no URL can carry has no details to ask for.
      if (!idOf(listed).isWellFormed()) continue;
      bodies.set(`${base}/event/${encodeURIComponent(idOf(listed))}/details`, wireJson(details));
    }
  }
  return serveOnLoopback((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const body = bodies.get(path);
    response.writeHead(body === undefined ? 404 : 200, {
      "content-type": "application/json; charset=utf-8",
    });
    response.end(body ?? '{"title":"Not found"}');
  });
}
