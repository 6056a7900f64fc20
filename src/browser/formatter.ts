const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * Intl formats cost far more to make than to use: one per language, zone
 * and options. A zone left undefined is the visitor's.
 */
export function formatter(
  lang: string,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = JSON.stringify([lang, timeZone, options]);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { ...options, timeZone });
    formats.set(key, format);
  }
  return format;
}
