/*
 * Route tables for the paths the production server answers itself (lib/server/fast-routes.ts): a path
 * with {name} segments and its handlers per method, the same functions the app's route files export.
 */

export type RouteParams = Record<string, string>;
export type PublicHandler = (request: Request, route: { params: Promise<RouteParams> }) => Promise<Response>;
export type PublicMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
export type PublicRoute = { readonly path: string; readonly methods: Partial<Record<PublicMethod, PublicHandler>> };

type Handlers<Params> = (request: Request, route: { params: Promise<Params> }) => Promise<Response>;
/** Route params are typed per handler; the table only promises strings for the path's {names}. */
const route = <Params>(handler: Handlers<Params>) => handler as unknown as PublicHandler;

/** A path and its handlers, whatever their params' type, as one row of a route table. */
export const table = (path: string, methods: Record<string, Handlers<never>>): PublicRoute => ({
  path,
  methods: Object.fromEntries(Object.entries(methods).map(([method, handler]) => [method, route(handler)])),
});

/** The route and its decoded path params for a pathname, or null. `{name}` matches one non-empty segment. */
export function matchRoute(
  pathname: string,
  routes: readonly PublicRoute[],
): { route: PublicRoute; params: RouteParams } | null {
  const segments = pathname.split("/");
  for (const candidate of routes) {
    const pattern = candidate.path.split("/");
    if (pattern.length !== segments.length) continue;
    const params: RouteParams = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index];
      if (!part.startsWith("{")) return part === segment;
      if (!segment) return false;
      params[part.slice(1, -1)] = decodeSegment(segment);
      return true;
    });
    if (matches) return { route: candidate, params };
  }
  return null;
}

/** Malformed percent-encoding is passed through as is; handlers answer 404 to ids they cannot know. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
