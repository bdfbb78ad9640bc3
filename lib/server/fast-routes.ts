import "server-only";
import { CHAT_ROUTES, MAX_VISITOR_BODY_BYTES } from "@/lib/conversations/visitor-http";
import { handleWebhookRequest } from "@/lib/events-webhook/handler";
import { MAX_BODY_BYTES as WEBHOOK_BODY_LIMIT } from "@/lib/events-webhook/body";
import { MAX_PUBLIC_BODY_BYTES } from "@/lib/api/body";
import { decodeSegment, matchRoute, type PublicMethod, type PublicRoute } from "@/lib/platform/http/route-table";
import { PUBLIC_ROUTES } from "@/lib/public-api/routes";
import { metricsRoute } from "@/lib/observability/metrics-endpoint";

/*
 * The machine-facing hot paths (every public API route, the events webhook and the chat page's
 * endpoints, which every visitor's message and 1.5 s poll reach), answered straight from
 * node:http by the production server (server.mjs), skipping Next's page/route pipeline, which costs more
 * CPU per request than the work itself. The handlers are the ones the app routes re-export (and
 * `next dev` serves alone), so each route has one implementation.
 */

export type FastHandler = (request: Request) => Promise<Response>;

export type FastRoute = {
  /** For the start-up log: which fast routes are active. */
  readonly label: string;
  /** The path with its parameters as names ("/api/v1/leads/{id}"), for metrics and traces, which never see
   * ids; by default the label's path. */
  readonly template?: string;
  readonly methods: readonly string[];
  /** The adapter reads at most this many bytes (plus one, so the handler can tell "too large"). */
  readonly maxBodyBytes: number;
  /** The handler for this path, or null when the path is not this route's. */
  readonly bind: (pathname: string) => FastHandler | null;
};

/** What the production server does with a request: a fast handler, a JSON error, or Next.js. */
export type FastMatch =
  | { kind: "route"; handler: FastHandler; maxBodyBytes: number; route: FastRoute }
  | { kind: "method_not_allowed"; allow: readonly string[]; route: FastRoute }
  | { kind: "not_found" }
  | null;

const WEBHOOK_PREFIX = "/api/v1/events/webhook/";

/** A path of a route table, with HEAD answered by its GET (the adapter drops the body). */
function tableFastRoute(route: PublicRoute, maxBodyBytes: number): FastRoute {
  const methods = Object.keys(route.methods) as PublicMethod[];
  const allowed = methods.includes("GET") ? [...methods, "HEAD"] : methods;
  return {
    label: `${allowed.join("|")} ${route.path}`,
    template: route.path,
    methods: allowed,
    maxBodyBytes,
    bind: (pathname) => {
      const match = matchRoute(pathname, [route]);
      if (!match) return null;
      const params = Promise.resolve(match.params);
      return (request) => {
        const method = (request.method === "HEAD" ? "GET" : request.method) as PublicMethod;
        return route.methods[method]!(request, { params });
      };
    },
  };
}

export const FAST_ROUTES: readonly FastRoute[] = [
  ...PUBLIC_ROUTES.map((route) => tableFastRoute(route, MAX_PUBLIC_BODY_BYTES)),
  ...CHAT_ROUTES.map((route) => tableFastRoute(route, MAX_VISITOR_BODY_BYTES)),
  {
    label: "GET|HEAD /metrics",
    template: "/metrics",
    methods: ["GET", "HEAD"],
    maxBodyBytes: 0,
    bind: (pathname) => (pathname === "/metrics" ? metricsRoute : null),
  },
  {
    label: "POST /api/v1/events/webhook/:sourceId",
    template: "/api/v1/events/webhook/{sourceId}",
    methods: ["POST"],
    maxBodyBytes: WEBHOOK_BODY_LIMIT,
    bind: (pathname) => {
      if (!pathname.startsWith(WEBHOOK_PREFIX)) return null;
      const sourceId = pathname.slice(WEBHOOK_PREFIX.length);
      if (!sourceId || sourceId.includes("/")) return null;
      const publicId = decodeSegment(sourceId);
      return (request) => handleWebhookRequest(request, publicId);
    },
  },
];

/** The webhook owns every path under its prefix: anything deeper than one segment is a JSON 404 at once. */
const OWNED_PREFIXES = [WEBHOOK_PREFIX];

export function resolveFastPath(
  method: string,
  pathname: string,
  routes: readonly FastRoute[] = FAST_ROUTES,
): FastMatch {
  for (const route of routes) {
    const handler = route.bind(pathname);
    if (!handler) continue;
    if (route.methods.includes(method)) return { kind: "route", handler, maxBodyBytes: route.maxBodyBytes, route };
    // OPTIONS stays with Next.js, which answers it for every route with the methods it exports.
    return method === "OPTIONS" ? null : { kind: "method_not_allowed", allow: route.methods, route };
  }
  return OWNED_PREFIXES.some((prefix) => pathname.startsWith(prefix)) ? { kind: "not_found" } : null;
}

/** The handler for a method and path, or null (kept for callers that only need the route itself). */
export function matchFastRoute(method: string, pathname: string): FastHandler | null {
  const match = resolveFastPath(method, pathname);
  return match?.kind === "route" ? match.handler : null;
}
