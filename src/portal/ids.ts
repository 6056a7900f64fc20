/**
 * Ids are opaque strings of 1 to 128 characters from the RFC 3986 "unreserved"
 * set, so they travel in a path segment without percent-encoding. Ids made
 * only of dots are refused: "." and ".." are dot-segments that clients
 * remove before sending (RFC 3986 section 5.2.4), so they could never be
 * addressed.
 */
const ID = /^(?!\.+$)[A-Za-z0-9._~-]{1,128}$/;

export const isValidId = (value: unknown): value is string =>
  typeof value === "string" && ID.test(value);
