/**
 * How deep a portal's JSON may nest. Real records nest a few levels (a
 * JSON:API envelope, a location with an address, a GeoJSON point); JSON
 * parsers read any depth, but recursive code does not: JSON.stringify,
 * which the response cache and the build's fingerprints run on every
 * record, overflows its stack at about 10,000 levels, and one such field
 * would fail the build.
 */
export const WIRE_DEPTH_LIMIT = 64;

/**
 * A parsed JSON value with whatever nests deeper than WIRE_DEPTH_LIMIT
 * replaced by null (in place: it is the parser's fresh value), so that the
 * rest of the record is read as usual. Iterative: no depth is too deep for it.
 */
export function withinWireDepth<T>(value: T): T {
  const stack: [Record<string, unknown>, number][] = [];
  if (isContainer(value)) stack.push([value, 1]);
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [container, depth] = next;
    for (const key of Object.keys(container)) {
      const inner = container[key];
      if (!isContainer(inner)) continue;
      if (depth >= WIRE_DEPTH_LIMIT) container[key] = null;
      else stack.push([inner, depth + 1]);
    }
  }
  return value;
}

function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
