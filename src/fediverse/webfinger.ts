import type { SiteConfig } from "../config/site.ts";
import { accountOf } from "./account.ts";
import { ACTIVITY_JSON } from "./activity-context.ts";

/**
 * The WebFinger answer (RFC 7033) for the site's account, at
 * /.well-known/webfinger. A static file answers every query the same,
 * whatever its `resource`: the site has one account, so every question a
 * server asks of this host (`acct:events@host`, the actor's or the home
 * page's URL) is about it. Mastodon and Fedify follow the `self` link to the
 * actor; the profile page is the site itself.
 */
export function renderWebfinger(site: Pick<SiteConfig, "url" | "urls">, username: string): string {
  const account = accountOf(site, username);
  const jrd = {
    subject: account.acct,
    aliases: [account.actor, account.home],
    links: [
      { rel: "self", type: ACTIVITY_JSON, href: account.actor },
      { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: account.home },
    ],
  };
  return `${JSON.stringify(jrd, null, 2)}\n`;
}
