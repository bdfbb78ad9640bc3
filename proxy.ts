import { NextResponse, type NextRequest } from "next/server";
import { chatPagePolicy } from "@/lib/conversations/frame-policy";
import { contentSecurityPolicy, createNonce, hstsFor } from "@/lib/platform/http/security-headers";

/*
 * Runs before every page (not the API, not static files):
 * - a Content-Security-Policy with a fresh nonce, passed to Next.js in the request so it marks its own
 *   scripts with it, and sent to the browser with the page (lib/platform/http/security-headers.ts);
 * - for dashboard pages, a fast first gate: without a session cookie, go to sign-in and come back here
 *   afterwards. The pages still verify the session itself (a cookie may be stale or forged); this only
 *   saves a render and passes the path along for that redirect;
 * - for a widget's chat page (/chat/{widget_id}), frame-ancestors lists the widget's allowed origins
 *   instead of 'none': the one page other sites may frame (docs/chat-widget.md, "Allowed origins"),
 *   and img-src adds the origin of the widget's logo;
 * - the chat widget's settings page may show any https image: its preview shows the logo being typed.
 */
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const WIDGET_SETTINGS = /^\/settings\/chat-widget\/?$/;
const DASHBOARD = /^\/(?:$|knowledge(?:\/|$)|settings(?:\/|$)|leads(?:\/|$)|conversations(?:\/|$))/;

export function proxy(request: NextRequest): NextResponse | Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  const dashboard = DASHBOARD.test(pathname);
  if (dashboard && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", pathname + search);
    return NextResponse.redirect(signIn);
  }
  // Only the chat page waits for a lookup; every other page is answered synchronously.
  const chatPage = chatPagePolicy(pathname);
  if (chatPage) return chatPage.then((policy) => withPolicy(request, { ...policy, dashboard }));
  const imageSources = WIDGET_SETTINGS.test(pathname) ? ["https:"] : [];
  return withPolicy(request, { frameAncestors: undefined, imageSources, dashboard });
}

function withPolicy(
  request: NextRequest,
  options: { frameAncestors: string | undefined; imageSources: string[]; dashboard: boolean },
): NextResponse {
  const { pathname, search } = request.nextUrl;
  const { dashboard, frameAncestors, imageSources } = options;
  const dev = process.env.NODE_ENV === "development";
  const csp = contentSecurityPolicy(createNonce(), { dev, frameAncestors, imageSources });
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
