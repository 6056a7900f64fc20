import type { FediverseConfig } from "../config/fediverse.ts";
import type { SiteConfig } from "../config/site.ts";
import { messagesFor } from "../i18n/messages.ts";
import { escapeHtml } from "../model/sanitize.ts";
import { paths } from "../model/url-scheme.ts";
import { accountOf } from "./account.ts";
import { ACTOR_CONTEXT } from "./activity-context.ts";

/**
 * The site's actor (ActivityPub section 4.1), at /ap/actor.json.
 *
 * An `Organization` rather than an `Application` (docs/followers.md): what
 * people follow is the organization whose events these are, entered by its
 * people in its portal; ActivityStreams' `Application` is a piece of
 * software, and Mastodon labels one a bot. Followers are accepted without
 * asking (the events are public already), and the account may be suggested
 * to others (`discoverable`).
 */

export interface ActorOptions {
  /** The picture it shows: the site's share card (PNG); null without cards. */
  readonly icon: { readonly url: string; readonly width: number; readonly height: number } | null;
}

export function renderActor(
  site: Pick<SiteConfig, "url" | "urls" | "title" | "description" | "lang">,
  fediverse: FediverseConfig,
  options: ActorOptions,
): string {
  const account = accountOf(site, fediverse.username);
  const t = messagesFor(site.lang);
  const link = (url: string) =>
    `<a href="${escapeHtml(url)}" rel="me nofollow noopener" target="_blank">${escapeHtml(url.replace(/^https?:\/\//, "").replace(/\/$/, ""))}</a>`;
  const actor = {
    "@context": ACTOR_CONTEXT,
    id: account.actor,
    type: "Organization",
    preferredUsername: fediverse.username,
    name: site.title,
    summary: `<p>${escapeHtml(site.description)}</p>`,
    url: account.home,
    inbox: account.inbox,
    outbox: account.outbox,
    followers: account.followers,
    endpoints: { sharedInbox: account.inbox },
    manuallyApprovesFollowers: false,
    discoverable: true,
    ...(options.icon
      ? {
          icon: {
            type: "Image",
            mediaType: "image/png",
            url: options.icon.url,
            width: options.icon.width,
            height: options.icon.height,
          },
        }
      : {}),
    // Profile fields, as Mastodon shows them under the name.
    attachment: [
      { type: "PropertyValue", name: t.apWebsite, value: link(account.home) },
      {
        type: "PropertyValue",
        name: t.subscribe,
        value: link(site.urls.absolute(paths.subscribe())),
      },
    ],
    publicKey: { id: account.keyId, owner: account.actor, publicKeyPem: fediverse.publicKeyPem },
  };
  return `${JSON.stringify(actor, null, 2)}\n`;
}
