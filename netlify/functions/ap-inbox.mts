import { inboxResponse } from "../../src/fediverse/account-functions.ts";

/**
 * Netlify Function: the fediverse account's inbox at `{site}/ap/inbox`
 * (docs/followers.md, "The fediverse"; src/fediverse/inbox.ts): signed
 * Follows and their Undos. It reads SITE_URL, AP_USERNAME and AP_PRIVATE_KEY
 * (Functions scope) and keeps followers in Netlify Blobs.
 */
export default function apInbox(request: Request): Promise<Response> {
  return inboxResponse(request, process.env);
}

/** Netlify reads this literal: the function answers at this path instead of /.netlify/functions/ap-inbox. */
export const config = { path: "/ap/inbox" };
