/** The dashboard's home, the Overview. */
export const DEFAULT_AFTER_SIGN_IN = "/";

// Any origin works: only whether the parsed URL stays on it matters, and the result keeps the path only.
const BASE = "http://app.invalid";

/**
 * Where to go after sign-in: a path on this site, never another origin (open redirect). Browsers strip
 * tabs and newlines from URLs and read `\` as `/`, so `/<TAB>/evil.example` or `/\evil.example` would
 * leave the site; any input containing those is refused before parsing. What remains is parsed with the
 * WHATWG URL parser, as a browser would, and kept only when it stays on the same origin.
 */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/")) return DEFAULT_AFTER_SIGN_IN;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (url.origin !== BASE) return DEFAULT_AFTER_SIGN_IN;
  const path = url.pathname + url.search + url.hash;
  // A path beginning with `//` (e.g. from `/.//x` normalising) would be protocol-relative once redirected;
  // its encoded forms (`/%2F…`, `/%5C…`) are refused too, in case anything on the way decodes them.
  return /^\/(\/|%2f|%5c)/i.test(path) ? DEFAULT_AFTER_SIGN_IN : path;
}
