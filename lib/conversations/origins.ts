/*
 * The website origins allowed to frame an account's chat (docs/chat-widget.md, "Allowed origins").
 * Pure. They end up in a Content-Security-Policy frame-ancestors directive, so only a canonical
 * scheme://host[:port] is accepted: anything else (a path, a wildcard, a quote or a semicolon) could
 * widen or break the policy.
 */

export const MAX_ALLOWED_ORIGINS = 20;

/** "https://Example.com/path" → "https://example.com"; null when it is not an http(s) origin. */
export function normaliseOrigin(value: string): string | null {
  const trimmed = value.trim();
  if (!/^https?:\/\/[^\s/?#;,'"*]+\/?$/i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  return url.origin;
}

export type OriginsResult = { ok: true; origins: string[] } | { ok: false; invalid: string[] };

/** One origin per line (or comma-separated); blank lines ignored, duplicates removed, order kept. */
export function parseAllowedOrigins(input: string | readonly string[]): OriginsResult {
  const entries = (typeof input === "string" ? input.split(/[\n,]/) : [...input])
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => normaliseOrigin(entry) === null);
  if (invalid.length > 0) return { ok: false, invalid };
  const origins = [...new Set(entries.map((entry) => normaliseOrigin(entry)!))];
  if (origins.length > MAX_ALLOWED_ORIGINS) return { ok: false, invalid: origins.slice(MAX_ALLOWED_ORIGINS) };
  return { ok: true, origins };
}

/** The frame-ancestors source list of a widget's chat page: the app itself and the allowed origins. */
export function frameAncestors(allowedOrigins: readonly string[]): string {
  const safe = allowedOrigins.map(normaliseOrigin).filter((origin): origin is string => origin !== null);
  return ["'self'", ...safe].join(" ");
}
