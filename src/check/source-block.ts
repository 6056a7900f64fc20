/**
 * What `npm run check-api` proposes for one source of EVENT_SOURCES_FILE
 * (docs/sources.md): the source's block of the file as it is written there,
 * with the settings the check found applied under their own names (a null
 * drops one), ready to replace the block. The file holds no token (the
 * reader refuses one), so neither does the block.
 */
export function sourceBlock(
  entry: Readonly<Record<string, unknown>>,
  changes: Readonly<Record<string, string | null>>,
): string {
  const block: Record<string, unknown> = { ...entry };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete block[name];
    // The file holds a field map as an object: it reads better than JSON in a string.
    else block[name] = name === "EVENT_API_FIELD_MAP" ? JSON.parse(value) : value;
  }
  return JSON.stringify(block, null, 2);
}
