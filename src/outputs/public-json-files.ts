import type { Announcement, RemovedEventRecord } from "../changes/published-state.ts";
import type { Calendar, PortalSnapshot } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup, singleFile } from "../render/file-group.ts";
import {
  type PublicJsonSite,
  writeCalendarEventsJson,
  writeCalendarsJson,
  writeChangesJson,
  writeManifestJson,
} from "./public-json.ts";

/** The token-free public JSON mirror's files (docs/public-json.md). */
export function publicJsonFileGroups(
  data: PortalSnapshot & {
    readonly announcements: readonly Announcement[];
    readonly removedRecords: readonly RemovedEventRecord[];
  },
  site: PublicJsonSite,
): readonly FileGroup[] {
  return [
    singleFile("json", paths.apiCalendars(), () => writeCalendarsJson(data, site)),
    singleFile("json", paths.apiManifest(), () => writeManifestJson(data, site)),
    singleFile("json", paths.apiChanges(), () => writeChangesJson(data)),
    fileGroup<Calendar>({
      phase: "json",
      name: "events.json",
      items: data.calendars,
      path: (calendar) => paths.apiEvents(calendar.id),
      render: (calendar) => writeCalendarEventsJson(data, calendar.id, site),
    }),
  ];
}
