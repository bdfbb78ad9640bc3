import "server-only";
import { canManage, getSessionContext, type SessionContext } from "./session";

/*
 * The session check of route handlers the dashboard calls (exports, the inbox poll, CSV uploads), as
 * defineAction (lib/actions/action.ts) is for server actions: the wrapper reads the session and checks
 * the role before the handler runs, so role checks live here and not in domain functions. Each route
 * answers a missing session or role in its own way (a sign-in redirect for a download, JSON for fetch).
 *   role "manager": owners and admins;  "member": anyone signed in to the account.
 */

export type RouteRole = "manager" | "member";

export type SessionRouteOptions = {
  role: RouteRole;
  /** The answer without a session. */
  signedOut: (request: Request) => Response;
  /** The answer when the role is missing; required for "manager" routes. */
  forbidden?: (request: Request) => Response;
};

export function withSession<A extends unknown[]>(
  options: SessionRouteOptions,
  handler: (request: Request, context: SessionContext, ...rest: A) => Promise<Response>,
): (request: Request, ...rest: A) => Promise<Response> {
  return async (request, ...rest) => {
    const context = await getSessionContext();
    if (!context) return options.signedOut(request);
    if (options.role === "manager" && !canManage(context)) {
      return options.forbidden ? options.forbidden(request) : new Response(null, { status: 403 });
    }
    return handler(request, context, ...rest);
  };
}

/** A download's answer without a session: sign in, then come back to `page`. */
export const signInRedirect = (page: string) => (request: Request) =>
  Response.redirect(new URL(`/sign-in?callbackUrl=${encodeURIComponent(page)}`, request.url), 303);
