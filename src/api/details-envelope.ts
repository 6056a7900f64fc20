import {
  type FieldMap,
  isPlainObject,
  pickEventField,
  RECORD_ENVELOPE_KEYS,
} from "../model/field-map.ts";
import type { WireRecord } from "../model/wire.ts";

/** What was unwrapped, for check-api to report. */
export interface Unwrapped {
  readonly record: WireRecord;
  /** The envelope key, or null when the body was the record itself. */
  readonly envelope: string | null;
}

/**
 * The details record inside a single-record envelope (RECORD_ENVELOPE_KEYS),
 * as list envelopes are read. A body that already carries an event id (under
 * the field map's name or a common one) is the record itself and is left
 * alone, so a portal whose records merely have a `data` field keeps working.
 * A field map written for the envelope (`"summary": "data.perex"`) still
 * reads inside it: see eventPathIn. JSON:API resources
 * (`{ "data": { "id", "type", "attributes": { ... } } }`) are flattened to
 * their id plus attributes.
 */
export function unwrapDetails(body: WireRecord, map: FieldMap): Unwrapped {
  if (pickEventField([body], "id", map) !== undefined) return { record: body, envelope: null };
  for (const key of RECORD_ENVELOPE_KEYS) {
    const inner = body[key];
    if (isPlainObject(inner)) return { record: flattenJsonApi(inner), envelope: key };
  }
  return { record: body, envelope: null };
}

function flattenJsonApi(resource: WireRecord): WireRecord {
  const { attributes } = resource;
  if (!isPlainObject(attributes) || typeof resource.type !== "string") return resource;
  return { ...attributes, id: resource.id };
}
