import type { Env } from "./client-ip";

/*
 * Response headers every answer of the app carries, and the page-only Content-Security-Policy.
 * The production server (lib/server/request-listener.ts) sets SECURITY_HEADERS (and HSTS) on every
 * response, fast path and Next.js alike; next.config.mjs repeats the three static ones for `next dev`
 * (a test keeps the two lists equal). proxy.ts sets the CSP with a fresh nonce per page.
 *
 * One kind of page may be framed: the hosted chat `/chat/{widget_id}`, by the widget's allowed origins
 * (docs/chat-widget.md, "Allowed origins"). Its CSP names them in frame-ancestors, and it is the one
 * path without X-Frame-Options, which knows no list of origins (browsers that understand frame-ancestors
 * ignore it anyway, but a DENY would still refuse the frame in those that do not).
 */

export const SECURITY_HEADERS: ReadonlyArray<readonly [name: string, value: string]> = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
];

/** Pages under this prefix are framed by other sites: the widget's chat page. */
export const FRAMEABLE_PATH_PREFIX = "/chat/";

export const isFrameablePath = (pathname: string): boolean => pathname.startsWith(FRAMEABLE_PATH_PREFIX);

/** SECURITY_HEADERS for this path: all of them, except X-Frame-Options on the framed chat page. */
export function securityHeadersFor(pathname: string): ReadonlyArray<readonly [name: string, value: string]> {
  return isFrameablePath(pathname) ? SECURITY_HEADERS.filter(([name]) => name !== "X-Frame-Options") : SECURITY_HEADERS;
}

/** Two years, subdomains included: sent only when the public URL is https (browsers ignore it over http anyway). */
export const HSTS_VALUE = "max-age=63072000; includeSubDomains";

/** The app's public URL, as sign-in links and webhook URLs show it. */
export function publicUrl(env: Env = process.env): string | undefined {
  return env.NEXTAUTH_URL || env.APP_BASE_URL || undefined;
}

export function isHttpsUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

/** The HSTS header value for this deployment, or null when it is not served over https. */
export function hstsFor(env: Env = process.env): string | null {
  return isHttpsUrl(publicUrl(env)) ? HSTS_VALUE : null;
}

/** 16 random bytes, base64: a nonce no page can guess or reuse. Web Crypto, so it runs in any runtime. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/*
 * Strict CSP: scripts only with this response's nonce ('strict-dynamic' lets them load the chunks they
 * import). Next.js reads the nonce from the request's CSP header and puts it on its own scripts.
 * Styles: Tailwind's CSS is a same-origin file; Radix and sonner set inline style attributes and sonner
 * inserts a <style> element, which a nonce cannot cover, so inline styles stay allowed (styles cannot
 * run code). `next dev` needs eval for React's debugging and a websocket for hot reload.
 */
export function contentSecurityPolicy(
  nonce: string,
  options: { dev?: boolean; frameAncestors?: string; imageSources?: readonly string[] } = {},
): string {
  const dev = options.dev === true;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...(options.imageSources ?? [])].join(" "),
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${options.frameAncestors ?? "'none'"}`,
    "form-action 'self'",
  ].join("; ");
}
