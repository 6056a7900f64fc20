import { parseInstant } from "./dates.ts";
import { isPlainObject } from "./field-map.ts";
import type { FieldReader } from "./field-reader.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import type { Offer, Performer } from "./types.ts";

/**
 * Performers and ticket details (schema.org performer and Offer), read as
 * tolerantly as the other fields: what cannot be read is left out, never
 * guessed. An event without any keeps no such field at all.
 */

/** "Name", ["A", "B"], { name, url, type } or a list of those; the first RECORD_LIMITS.performers. */
export function readPerformers(raw: unknown, read: FieldReader): Performer[] {
  const items = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const performers: Performer[] = [];
  for (const item of read.first(items, "performers", RECORD_LIMITS.performers)) {
    const source: Record<string, unknown> = isPlainObject(item) ? item : { name: item };
    const name = read.text(source.name ?? source.title, "performer name", RECORD_LIMITS.name);
    if (!name || performers.some((p) => p.name === name)) continue;
    const type = typeof source.type === "string" ? source.type : source["@type"];
    const kind = typeof type === "string" ? type.toLowerCase() : "";
    const url = read.link(source.url ?? source.website, "performer URL");
    performers.push({
      name,
      kind: /group|band|ensemble|choir|orchestra|company/.test(kind) ? "group" : "person",
      url: url?.startsWith("mailto:") ? null : url,
    });
  }
  return performers;
}

export interface OfferFields {
  readonly price: unknown;
  readonly currency: unknown;
  readonly availability: unknown;
  readonly validFrom: unknown;
}

/** The offer, or null when nothing of it could be read. */
export function readOffer(raw: OfferFields): Offer | null {
  // A price may come as { amount, currency }.
  const priceObject = isPlainObject(raw.price) ? raw.price : null;
  const price = readPrice(priceObject ? (priceObject.amount ?? priceObject.value) : raw.price);
  const currency = readCurrency(raw.currency ?? priceObject?.currency);
  const availability = readAvailability(raw.availability);
  const validFrom = raw.validFrom === undefined ? null : parseInstant(raw.validFrom);
  if (price === null && currency === null && availability === null && validFrom === null)
    return null;
  return { price, currency, availability, validFrom };
}

/** 12, "12.50", "12,50" or "free" as a decimal string; anything else is not a price. */
function readPrice(raw: unknown): string | null {
  if (typeof raw === "number") return Number.isFinite(raw) && raw >= 0 ? String(raw) : null;
  if (typeof raw !== "string") return null;
  const text = raw.trim().toLowerCase();
  if (/^(free|gratis|0)$/.test(text)) return "0";
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return match[2] ? `${match[1]}.${match[2].padEnd(2, "0")}` : (match[1] ?? null);
}

function readCurrency(raw: unknown): string | null {
  return typeof raw === "string" && /^[A-Za-z]{3}$/.test(raw.trim())
    ? raw.trim().toUpperCase()
    : null;
}

const AVAILABILITY: Readonly<Record<string, string>> = {
  instock: "InStock",
  available: "InStock",
  onsale: "InStock",
  open: "InStock",
  soldout: "SoldOut",
  full: "SoldOut",
  preorder: "PreOrder",
  presale: "PreSale",
  limited: "LimitedAvailability",
  limitedavailability: "LimitedAvailability",
  outofstock: "SoldOut",
  discontinued: "Discontinued",
  onlineonly: "OnlineOnly",
};

/** schema.org names ("InStock", "https://schema.org/SoldOut") and common words ("sold_out"). */
function readAvailability(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/schema\.org\//, "")
    .replace(/[^a-z]/g, "");
  return AVAILABILITY[key] ?? null;
}
