import { isPlainObject } from "./field-map.ts";

export interface Geo {
  readonly lat: number;
  readonly lon: number;
}

/** "50.087,14.421", "50.087, 14.421" or "50.087;14.421": latitude first, as map links write it. */
const LAT_LON = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*[,;]\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/** Field names under which a place keeps its coordinates, tried in order. */
const GEO_KEYS = ["geo", "coordinates", "position", "point", "gps", "latlng", "geometry"];

/**
 * Coordinates in the shapes portals send them: `{ lat, lon }` (also `lng`,
 * `long`, `latitude`, `longitude`; numbers or digit strings), a "lat,lon"
 * string, or a GeoJSON Point (RFC 7946 section 3.1.2: `coordinates` is
 * `[lon, lat]`), bare or as a Feature's `geometry`. A bare array is not read:
 * its order cannot be told. Out-of-range values give null.
 */
export function readGeo(raw: unknown): Geo | null {
  if (typeof raw === "string") {
    const match = LAT_LON.exec(raw);
    return match ? checked(Number(match[1]), Number(match[2])) : null;
  }
  if (!isPlainObject(raw)) return null;
  // A Feature's geometry is a Point: a Feature in a Feature in... is read no deeper.
  if (raw.type === "Feature")
    return isPlainObject(raw.geometry) && raw.geometry.type === "Point"
      ? readGeo(raw.geometry)
      : null;
  if (raw.type === "Point") {
    const [lon, lat] = Array.isArray(raw.coordinates) ? raw.coordinates : [];
    return typeof lat === "number" && typeof lon === "number" ? checked(lat, lon) : null;
  }
  const lat = raw.lat ?? raw.latitude;
  const lon = raw.lon ?? raw.lng ?? raw.long ?? raw.longitude;
  return checked(coordinate(lat), coordinate(lon));
}

/** A number, or a string of one; anything else (an object has no number, whatever its keys say) is none. */
function coordinate(raw: unknown): number {
  if (typeof raw === "number") return raw;
  return typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
}

/** The coordinates of a place record: under one of GEO_KEYS, or on the place itself. */
export function readPlaceGeo(place: Readonly<Record<string, unknown>>): Geo | null {
  for (const key of GEO_KEYS) {
    if (place[key] !== undefined && place[key] !== null) return readGeo(place[key]);
  }
  return readGeo(place);
}

function checked(lat: number, lon: number): Geo | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon };
}
