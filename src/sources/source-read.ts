import type { PortalLists } from "../api/list-recorder.ts";
import type { ApiConfig } from "../config/api.ts";
import type { FeedValidators } from "./feed-fetch.ts";

/**
 * What one source gave the build, as its build state records it for the
 * change check (src/rebuild/build-state.ts): a portal's lists as read (null:
 * its last good data), a feed's validators (null: likewise).
 */
export type SourceRead =
  | {
      readonly id: string;
      readonly kind: "portal";
      /** Its settings; its token only to be redacted from the state (src/rebuild/write-build-state.ts). */
      readonly config: Pick<ApiConfig, "baseUrl" | "calendars" | "fieldMap" | "token">;
      readonly lists: PortalLists | null;
    }
  | {
      readonly id: string;
      readonly kind: "ics";
      readonly url: string;
      readonly feed: FeedValidators | null;
    };
