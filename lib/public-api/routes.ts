import "server-only";
import { withApiKey } from "@/lib/api-keys/with-api-key";
import { changeLeadStageRoute, createLeadRoute, getLeadRoute, listLeadsRoute, listPipelineRoute, updateLeadRoute } from "@/lib/leads/http";
import {
  createSubscriptionRoute,
  deleteSubscriptionRoute,
  getSubscriptionRoute,
  listMessagesRoute,
  listSubscriptionsRoute,
  updateSubscriptionRoute,
} from "@/lib/webhook-subscriptions/http";
import { closeConversationRoute, getConversationRoute, listConversationsRoute, listMessagesRoute as listConversationMessagesRoute, postMessageRoute } from "./conversations";
import { zapierMe } from "./zapier-me";

/*
 * Every key-authenticated path, once: the app/api/public route files re-export these handlers (what
 * `next dev` serves), and the production server's fast path (lib/server/fast-routes.ts) serves the same
 * table straight from node:http. Adding a public route means adding it here and re-exporting it from its
 * route file; the OpenAPI test fails while either is missing from the document.
 */

export type RouteParams = Record<string, string>;
export type PublicHandler = (request: Request, route: { params: Promise<RouteParams> }) => Promise<Response>;
export type PublicMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
export type PublicRoute = { readonly path: string; readonly methods: Partial<Record<PublicMethod, PublicHandler>> };

type Handlers<Params> = (request: Request, route: { params: Promise<Params> }) => Promise<Response>;
/** Route params are typed per handler; the table only promises strings for the path's {names}. */
const route = <Params>(handler: Handlers<Params>) => handler as unknown as PublicHandler;

export const meRoutes = { GET: zapierMe };
export const leadsRoutes = {
  GET: withApiKey(listLeadsRoute, { scope: "read:leads" }),
  POST: withApiKey(createLeadRoute, { scope: "write:leads" }),
};
export const leadRoutes = {
  GET: withApiKey<{ id: string }>(getLeadRoute, { scope: "read:leads" }),
  PATCH: withApiKey<{ id: string }>(updateLeadRoute, { scope: "write:leads" }),
};
export const leadStageRoutes = { POST: withApiKey<{ id: string }>(changeLeadStageRoute, { scope: "write:leads" }) };
export const pipelineRoutes = { GET: withApiKey(listPipelineRoute, { scope: "read:leads" }) };
export const webhooksRoutes = {
  GET: withApiKey(listSubscriptionsRoute, { scope: "webhooks" }),
  POST: withApiKey(createSubscriptionRoute, { scope: "webhooks" }),
};
export const webhookRoutes = {
  GET: withApiKey<{ id: string }>(getSubscriptionRoute, { scope: "webhooks" }),
  PATCH: withApiKey<{ id: string }>(updateSubscriptionRoute, { scope: "webhooks" }),
  DELETE: withApiKey<{ id: string }>(deleteSubscriptionRoute, { scope: "webhooks" }),
};
export const webhookEventsRoutes = { GET: withApiKey(listMessagesRoute, { scope: "webhooks" }) };
export const conversationsRoutes = { GET: withApiKey(listConversationsRoute, { scope: "read:conversations" }) };
export const conversationRoutes = { GET: withApiKey<{ id: string }>(getConversationRoute, { scope: "read:conversations" }) };
export const conversationMessagesRoutes = {
  GET: withApiKey<{ id: string }>(listConversationMessagesRoute, { scope: "read:conversations" }),
  POST: withApiKey<{ id: string }>(postMessageRoute, { scope: "write:conversations" }),
};
export const conversationCloseRoutes = { POST: withApiKey<{ id: string }>(closeConversationRoute, { scope: "write:conversations" }) };

const table = (path: string, methods: Record<string, Handlers<never>>): PublicRoute => ({
  path,
  methods: Object.fromEntries(Object.entries(methods).map(([method, handler]) => [method, route(handler)])),
});

export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  table("/api/public/zapier/me", meRoutes),
  table("/api/public/leads", leadsRoutes),
  table("/api/public/leads/{id}", leadRoutes),
  table("/api/public/leads/{id}/stage", leadStageRoutes),
  table("/api/public/pipeline", pipelineRoutes),
  table("/api/public/webhooks", webhooksRoutes),
  table("/api/public/webhooks/{id}", webhookRoutes),
  table("/api/public/webhook-events", webhookEventsRoutes),
  table("/api/public/conversations", conversationsRoutes),
  table("/api/public/conversations/{id}", conversationRoutes),
  table("/api/public/conversations/{id}/messages", conversationMessagesRoutes),
  table("/api/public/conversations/{id}/close", conversationCloseRoutes),
];

/** The route and its decoded path params for a pathname, or null. `{name}` matches one non-empty segment. */
export function matchPublicRoute(pathname: string, routes: readonly PublicRoute[] = PUBLIC_ROUTES): { route: PublicRoute; params: RouteParams } | null {
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
