import type { SiteConfig } from "../config/site.ts";
import { paths } from "../model/url-scheme.ts";

/**
 * The site's one fediverse account and its addresses, from SITE_URL and
 * AP_USERNAME through the one URL scheme (src/model/url-scheme.ts): what the
 * actor, WebFinger, the event objects, the outbox and the Netlify functions
 * all name, so they cannot disagree.
 */
export interface Account {
  /** `acct:events@events.example.org` (RFC 7565). */
  readonly acct: string;
  /** `@events@events.example.org`, as people write it. */
  readonly handle: string;
  readonly username: string;
  /** The actor's id and address. */
  readonly actor: string;
  /** Its public key's id, which signatures name (keyId). */
  readonly keyId: string;
  readonly inbox: string;
  readonly outbox: string;
  readonly followers: string;
  /** The site's home page: the account's profile page. */
  readonly home: string;
}

/** Addressed to everyone (ActivityPub section 5.6). */
export const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

export function accountOf(site: Pick<SiteConfig, "url" | "urls">, username: string): Account {
  const { host } = new URL(site.url);
  const actor = site.urls.absolute(paths.apActor());
  return {
    acct: `acct:${username}@${host}`,
    handle: `@${username}@${host}`,
    username,
    actor,
    keyId: `${actor}#main-key`,
    inbox: site.urls.absolute(paths.apInbox()),
    outbox: site.urls.absolute(paths.apOutbox()),
    followers: site.urls.absolute(paths.apFollowers()),
    home: site.urls.absolute(paths.home()),
  };
}
