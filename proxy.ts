import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, createNonce, hstsFor } from "@/lib/http/security-headers";

/*
 * Runs before every page (not the API, not static files):
 * - a Content-Security-Policy with a fresh nonce, passed to Next.js in the request so it marks its own
 *   scripts with it, and sent to the browser with the page (lib/http/security-headers.ts);
 * - for dashboard pages, a fast first gate: without a session cookie, go to sign-in and come back here
 *   afterwards. The pages still verify the session itself (a cookie may be stale or forged); this only
 *   saves a render and passes the path along for that redirect.
 */
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const DASHBOARD = /^\/(?:$|knowledge(?:\/|$)|settings(?:\/|$)|conversations(?:\/|$))/;

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const dashboard = DASHBOARD.test(pathname);
  if (dashboard && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", pathname + search);
    return NextResponse.redirect(signIn);
  }
  const csp = contentSecurityPolicy(createNonce(), { dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", csp);
  if (dashboard) headers.set("x-pathname", pathname + search);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  const hsts = hstsFor();
  if (hsts) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}

export const config = {
  // Pages only: API routes answer JSON and set their own headers; static assets need no policy.
  matcher: ["/((?!api/|_next/static/|_next/image|favicon.ico).*)"],
};
