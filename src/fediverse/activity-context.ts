/**
 * The JSON-LD contexts of what the site publishes to the fediverse. Terms
 * beyond ActivityStreams are defined inline rather than by a remote context
 * (FEP-8a8e's own, schema.org's), so that a reader that expands JSON-LD
 * (Fedify, Mobilizon) has nothing more to fetch, and one that reads plain
 * JSON (Mastodon, Gancio) finds the short names it knows.
 */

const ACTIVITY_STREAMS = "https://www.w3.org/ns/activitystreams";
/** publicKey, owner, publicKeyPem: what every server that verifies signatures reads. */
const SECURITY = "https://w3id.org/security/v1";

/** An actor's, as Mastodon writes its own (discoverable, profile fields). */
export const ACTOR_CONTEXT = [
  ACTIVITY_STREAMS,
  SECURITY,
  {
    manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
    toot: "http://joinmastodon.org/ns#",
    discoverable: "toot:discoverable",
    schema: "http://schema.org#",
    PropertyValue: "schema:PropertyValue",
    value: "schema:value",
  },
] as const;

/**
 * An event's and the activities that carry one: FEP-8a8e's terms
 * (https://w3id.org/fep/8a8e) and the schema.org terms it adopts for places.
 */
export const EVENT_CONTEXT = [
  ACTIVITY_STREAMS,
  {
    fep: "https://w3id.org/fep/8a8e/",
    schema: "https://schema.org/",
    timezone: "fep:timezone",
    eventStatus: { "@id": "fep:eventStatus", "@type": "@vocab" },
    EventScheduled: "fep:EventScheduled",
    EventCancelled: "fep:EventCancelled",
    EventPostponed: "fep:EventPostponed",
    displayEndTime: "fep:displayEndTime",
    joinMode: "fep:joinMode",
    externalParticipationUrl: { "@id": "fep:externalParticipationUrl", "@type": "@id" },
    address: "schema:address",
    PostalAddress: "schema:PostalAddress",
    streetAddress: "schema:streetAddress",
    addressLocality: "schema:addressLocality",
    addressRegion: "schema:addressRegion",
    postalCode: "schema:postalCode",
    addressCountry: "schema:addressCountry",
    VirtualLocation: "schema:VirtualLocation",
  },
] as const;

/** Content types (ActivityPub section 3.2; RFC 7033 section 10.2 for WebFinger). */
export const ACTIVITY_JSON = "application/activity+json";
export const JRD_JSON = "application/jrd+json";
