import { followersResponse } from "../../src/fediverse/account-functions.ts";

/**
 * Netlify Function: the account's followers collection at `{site}/ap/followers`,
 * their number only (src/fediverse/account-functions.ts).
 */
export default function apFollowers(_request: Request): Promise<Response> {
  return followersResponse(process.env);
}

/** Netlify reads this literal: the function answers at this path instead of /.netlify/functions/ap-followers. */
export const config = { path: "/ap/followers" };
