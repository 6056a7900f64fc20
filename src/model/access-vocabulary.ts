/**
 * What an event offers for access (the field map's `accessibility`), in a
 * small controlled vocabulary that pages and feeds can name in every
 * language, with the portal's own words kept for anything else
 * (docs/site.md, "Access information"). Each id is what the public JSON
 * publishes; the event page names it in the site's language, and the
 * structured data as an amenity of the place (schema.org amenityFeature).
 */
export const ACCESS_FEATURES = [
  "step-free-access",
  "accessible-toilet",
  "hearing-loop",
  "sign-language",
  "audio-description",
  "captions",
  "quiet-space",
  "assistance-dogs",
  "accessible-parking",
] as const;
export type AccessFeatureId = (typeof ACCESS_FEATURES)[number];
