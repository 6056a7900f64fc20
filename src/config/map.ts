import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";

/**
 * MAP_TILES_URL and MAP_ATTRIBUTION: a tile server the site's owner runs or
 * pays for, whose tiles a place page shows around the place when a visitor
 * asks ("Show map"). Unset, no page loads anything from another site: the
 * place pages offer links to map services instead (docs/configuration.md,
 * "Maps").
 */
export interface MapSettings {
  /** A tile URL template with {z}, {x} and {y}: "https://tiles.example.org/{z}/{x}/{y}.png". */
  readonly tilesUrl: string;
  /** Its origin, which the place pages' Content-Security-Policy lets images come from. */
  readonly origin: string;
  /** The credit the tile service asks for, shown under the map ("© OpenStreetMap contributors"). */
  readonly attribution: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** What readMapSettings reads. */
export const MAP_SETTINGS = envSettings("Site", ["MAP_TILES_URL", "MAP_ATTRIBUTION"]);

export function readMapSettings(env: NodeJS.ProcessEnv): MapSettings | null {
  const raw = env.MAP_TILES_URL?.trim();
  if (!raw) return null;
  // The placeholders are not valid in a URL's host; check the rest with them filled in.
  let url: URL | null = null;
  try {
    url = new URL(raw.replace(/\{[xyz]\}/g, "0"));
  } catch {}
  // Pages are served over https: an http tile would be mixed content, except from
  // this machine (a local tile server for trials and tests).
  const secure =
    url !== null &&
    (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname)));
  if (!url || !secure) {
    throw new ConfigError(
      `MAP_TILES_URL: "${raw}" is not an https:// URL (expected e.g. https://tiles.example.org/{z}/{x}/{y}.png).`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError("MAP_TILES_URL: must not contain credentials.");
  }
  for (const placeholder of ["{z}", "{x}", "{y}"]) {
    if (!raw.includes(placeholder)) {
      throw new ConfigError(
        `MAP_TILES_URL: "${raw}" has no ${placeholder} (expected e.g. https://tiles.example.org/{z}/{x}/{y}.png).`,
      );
    }
  }
  return { tilesUrl: raw, origin: url.origin, attribution: env.MAP_ATTRIBUTION?.trim() ?? "" };
}
