import type { AccessFeatureId } from "./access-vocabulary.ts";
import { isPlainObject } from "./field-map.ts";
import type { FieldReader } from "./field-reader.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import type { AccessFeature } from "./types.ts";

/*
 * Reads what an event offers for access into the vocabulary of
 * src/model/access-vocabulary.ts, keeping the portal's own words for
 * anything else.
 */

/**
 * The words portals and their editors use for each feature, in English and
 * Dutch, compared without case, spaces or punctuation ("Step-free access",
 * "step_free", "wheelchairAccessible"). A word not here is kept as text.
 */
const WORDS: Readonly<Record<AccessFeatureId, readonly string[]>> = {
  "step-free-access": [
    "stepfreeaccess",
    "stepfree",
    "levelaccess",
    "wheelchairaccess",
    "wheelchairaccessible",
    "wheelchair",
    "barrierfree",
    "drempelvrij",
    "drempelvrijtoegankelijk",
    "rolstoeltoegankelijk",
  ],
  "accessible-toilet": [
    "accessibletoilet",
    "wheelchairaccessibletoilet",
    "wheelchairtoilet",
    "disabledtoilet",
    "adaptedtoilet",
    "invalidentoilet",
    "rolstoeltoegankelijktoilet",
    "aangepasttoilet",
  ],
  "hearing-loop": [
    "hearingloop",
    "inductionloop",
    "audioinductionloop",
    "assistivelistening",
    "ringleiding",
  ],
  "sign-language": [
    "signlanguage",
    "signlanguageinterpretation",
    "signlanguageinterpreter",
    "bsl",
    "asl",
    "gebarentaal",
    "gebarentolk",
    "tolkgebarentaal",
  ],
  "audio-description": ["audiodescription", "audiodescribed", "audiodescriptie"],
  captions: [
    "captions",
    "captioned",
    "livecaptions",
    "closedcaptions",
    "subtitles",
    "surtitles",
    "ondertiteling",
    "boventiteling",
  ],
  "quiet-space": ["quietspace", "quietroom", "chilloutspace", "stilteruimte", "prikkelarm"],
  "assistance-dogs": [
    "assistancedogs",
    "assistancedogswelcome",
    "guidedogs",
    "servicedogs",
    "hulphonden",
    "hulphondenwelkom",
  ],
  "accessible-parking": [
    "accessibleparking",
    "disabledparking",
    "bluebadgeparking",
    "invalidenparkeerplaats",
    "gehandicaptenparkeerplaats",
  ],
};

const BY_WORD = new Map<string, AccessFeatureId>(
  Object.entries(WORDS).flatMap(([id, words]) =>
    words.map((word) => [word, id as AccessFeatureId] as const),
  ),
);

/** "Step-free access" -> "stepfreeaccess": the form WORDS are written in. */
function key(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * A list of words or `{ id | name | label | feature }` records, one
 * comma-separated string, or a record of flags (`{ "hearingLoop": true }`);
 * the first RECORD_LIMITS.accessFeatures of them, each once. A word of the
 * vocabulary becomes its feature; any other is kept as one line of text of
 * at most RECORD_LIMITS.accessText characters.
 */
export function readAccessFeatures(raw: unknown, read: FieldReader): AccessFeature[] {
  const items = accessItems(raw);
  const features: AccessFeature[] = [];
  const seen = new Set<string>();
  for (const item of read.first(items, "access features", RECORD_LIMITS.accessFeatures)) {
    const source = isPlainObject(item)
      ? (item.id ?? item.feature ?? item.name ?? item.label ?? item.title)
      : item;
    const id = typeof source === "string" ? BY_WORD.get(key(source)) : undefined;
    const feature: AccessFeature | null = id
      ? { feature: id }
      : typeof source === "string"
        ? textFeature(read.text(source, "access feature", RECORD_LIMITS.accessText))
        : null;
    if (!feature) continue;
    const identity = "feature" in feature ? feature.feature : `text:${key(feature.text)}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    features.push(feature);
  }
  return features;
}

function textFeature(text: string): AccessFeature | null {
  return text ? { text } : null;
}

function accessItems(raw: unknown): readonly unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === "string") return raw.split(",");
  // A record of flags: the names of those set to true.
  if (isPlainObject(raw)) return Object.keys(raw).filter((name) => raw[name] === true);
  return [];
}
