import type { EventActivity } from "../changes/event-activity.ts";
import type { SiteConfig } from "../config/site.ts";
import { eventDigest } from "../model/event-digest.ts";
import type { CalendarEvent } from "../model/types.ts";
import { paths } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup, singleFile } from "../render/file-group.ts";
import type { EventPage } from "../site/views.ts";
import { accountOf } from "./account.ts";
import { renderActor } from "./actor.ts";
import { renderEventDocument } from "./event-document.ts";
import { outboxKey, outboxPageCount, renderOutbox, renderOutboxPage } from "./outbox.ts";
import { renderWebfinger } from "./webfinger.ts";

/**
 * The site's ActivityPub files as file groups (src/render/file-group.ts),
 * written by the publisher with the others when the site has a fediverse
 * account (AP_PRIVATE_KEY or AP_PUBLIC_KEY, src/config/fediverse.ts): the
 * WebFinger answer, the actor, the outbox and its pages, and one object per
 * event page (an `Event`, or a `Tombstone` where the page only says the
 * event is gone). The host serves them with their content types through the
 * rules for /.well-known/webfinger and /ap/* (netlify.toml, and what
 * src/hosts derives from it for the other hosts).
 */

export interface FediverseInput {
  /** Every event page: an object each. */
  readonly pages: readonly EventPage[];
  /** What the recent publishes did, newest first (src/changes/event-activity.ts). */
  readonly activities: readonly EventActivity[];
  /** The actor's picture: the site's share card; null without cards. */
  readonly icon: { readonly url: string; readonly width: number; readonly height: number } | null;
  /** Which shard writes an event's object (src/shards); the other files are site-wide. */
  readonly shardKey: (event: CalendarEvent) => string;
}

export const EVENT_OBJECT_GROUP = "ap-event";

export function fediverseFileGroups(
  site: Pick<SiteConfig, "url" | "urls" | "title" | "description" | "lang" | "fediverse">,
  input: FediverseInput,
): FileGroup[] {
  const { fediverse } = site;
  if (!fediverse) return [];
  const account = accountOf(site, fediverse.username);
  const accountJson = JSON.stringify(account);
  const events = new Map(
    input.pages.map((page) => [
      outboxKey({ calendarId: page.event.calendarId, eventId: page.event.id }),
      page.event,
    ]),
  );
  const outbox = { activities: input.activities, events };
  const pageNumbers = Array.from(
    { length: outboxPageCount(input.activities.length) },
    (_, index) => index + 1,
  );
  return [
    // WebFinger lives at the host's root (RFC 7033 section 4): a site in a
    // folder cannot answer it, and is found by its actor's or its pages' URLs.
    ...(site.urls.basePath === ""
      ? [
          singleFile("fediverse", paths.webfinger(), () =>
            renderWebfinger(site, fediverse.username),
          ),
        ]
      : []),
    singleFile("fediverse", paths.apActor(), () =>
      renderActor(site, fediverse, { icon: input.icon }),
    ),
    singleFile("fediverse", paths.apOutbox(), () =>
      renderOutbox(site, account, input.activities.length),
    ),
    fileGroup<number>({
      phase: "fediverse",
      name: "ap-outbox-page",
      items: pageNumbers,
      path: (n) => paths.apOutboxPage(n),
      render: (n) => renderOutboxPage(site, account, outbox, n),
    }),
    fileGroup<EventPage>({
      phase: "fediverse",
      name: EVENT_OBJECT_GROUP,
      items: input.pages,
      path: (page) => paths.apEvent(page.event.calendarId, page.event.id),
      render: (page) => renderEventDocument(page.event, site, account),
      // All the object is made from: the account, the site's address and the event whole.
      inputs: (page) => JSON.stringify([accountJson, site.urls.siteUrl, eventDigest(page.event)]),
      shardKey: (page) => input.shardKey(page.event),
    }),
  ];
}
