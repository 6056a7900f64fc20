import type { Announcement, RemovedEventRecord } from "../changes/published-state.ts";
import type { Calendar, PortalSnapshot } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup, singleFile } from "../render/file-group.ts";
import { type PublicJson, writeChangesJson } from "./public-json.ts";

/** The token-free public JSON mirror's files (docs/public-json.md). */
export function publicJsonFileGroups(
  data: PortalSnapshot & {
    readonly announcements: readonly Announcement[];
    readonly removedRecords: readonly RemovedEventRecord[];
  },
  json: PublicJson,
  options: {
    /** The manifest is the build's, at the site's root only (not in a language's folder). */
    readonly manifest?: boolean;
    /**
     * A file's bytes as last published, when rendered from these inputs
     * (FileWriter.publishedCopy): a kept events.json's body for the manifest's hash.
     */
    readonly publishedCopy?: (path: string, inputs: () => string) => Uint8Array | undefined;
  } = {},
): readonly FileGroup[] {
  const { publishedCopy } = options;
  const manifest = options.manifest !== false;
  return [
    singleFile("json", paths.apiCalendars(), () => json.calendarsJson()),
    singleFile("json", paths.apiChanges(), () => writeChangesJson(data)),
    fileGroup<Calendar>({
      phase: "json",
      name: "events.json",
      items: data.calendars,
      path: (calendar) => paths.apiEvents(calendar.id),
      render: (calendar) => json.eventsJson(calendar.id),
      inputs: (calendar) => json.eventsInputs(calendar.id),
      // A kept file's body for the manifest's hash, where there is a manifest.
      ...(manifest && {
        after: ({ id }: Calendar) =>
          json.eventsWritten(id, () =>
            publishedCopy?.(paths.apiEvents(id), () => json.eventsInputs(id)),
          ),
      }),
    }),
    // After the calendars' files: its hash is of their bodies, as they were written.
    ...(manifest ? [singleFile("json", paths.apiManifest(), () => json.manifestJson())] : []),
  ];
}
