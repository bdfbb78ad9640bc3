import { NextResponse, type NextRequest } from "next/server";

/*
 * A fast first gate for dashboard pages: without a session cookie, go to sign-in and come back here
 * afterwards. The pages still verify the session itself (a cookie may be stale or forged); this only
 * saves a render and passes the path along for that redirect.
 */
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (!hasSession) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", pathname + search);
    return NextResponse.redirect(signIn);
  }
  const headers = new Headers(request.headers);
  headers.set("x-pathname", pathname + search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/", "/knowledge/:path*", "/settings/:path*"],
};
