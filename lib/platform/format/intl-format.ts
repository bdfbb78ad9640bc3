/*
 * One Intl.DateTimeFormat per locale, options and time zone, kept for the process: building one costs
 * far more than formatting with it, and lists format hundreds of dates per page. `options` must be a
 * module-level constant: it is the cache's key by identity.
 */

const formats = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

export function zonedFormat(
  locale: "en-US" | "en-GB",
  options: Intl.DateTimeFormatOptions,
  timeZone: string,
): Intl.DateTimeFormat {
  let byZone = formats.get(options);
  if (!byZone) formats.set(options, (byZone = new Map()));
  const key = `${locale} ${timeZone}`;
  let format = byZone.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    byZone.set(key, format);
  }
  return format;
}
