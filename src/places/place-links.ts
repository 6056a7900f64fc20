import type { Place } from "../model/types.ts";

/**
 * How to get to a place, as plain links a visitor follows to a map service
 * of their choice: nothing is loaded from any of them by the page itself
 * (docs/site.md, "Places").
 *
 * - `geo`: a geo: URI (RFC 5870), which phones open in their map app; only
 *   with coordinates;
 * - `openStreetMap`: the point on openstreetmap.org with coordinates, else a
 *   search for the name and address;
 * - `appleMaps`, `googleMaps`: directions to the name and address (what
 *   these services match to the venue), else to the coordinates (Apple's
 *   `daddr`, Google's Maps URLs `dir/?api=1&destination=`).
 *
 * Every portal text is percent-encoded into its query; coordinates are numbers.
 */
export interface PlaceLinks {
  readonly geo: string | null;
  readonly openStreetMap: string;
  readonly appleMaps: string;
  readonly googleMaps: string;
}

export function placeLinks(place: Place): PlaceLinks | null {
  const text = [place.name, place.address?.formatted].filter(Boolean).join(", ");
  const geo = place.geo && Number.isFinite(place.geo.lat) && Number.isFinite(place.geo.lon);
  const point = geo && place.geo ? `${place.geo.lat},${place.geo.lon}` : null;
  if (!text && !point) return null;
  const destination = encodeURIComponent(place.address ? text : (point ?? text));
  const osm =
    point && place.geo
      ? `https://www.openstreetmap.org/?mlat=${place.geo.lat}&mlon=${place.geo.lon}#map=17/${place.geo.lat}/${place.geo.lon}`
      : `https://www.openstreetmap.org/search?query=${encodeURIComponent(text)}`;
  return {
    geo: point ? `geo:${point}` : null,
    openStreetMap: osm,
    appleMaps: `https://maps.apple.com/?daddr=${destination}`,
    googleMaps: `https://www.google.com/maps/dir/?api=1&destination=${destination}`,
  };
}
