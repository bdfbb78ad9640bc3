import "server-only";
import { withApiKey } from "@/lib/api/with-api-key";
import {
  changeLeadStageRoute,
  createLeadRoute,
  getLeadRoute,
  listLeadsRoute,
  listPipelineRoute,
  updateLeadRoute,
} from "@/lib/leads/http";
import {
  createSubscriptionRoute,
  deleteSubscriptionRoute,
  getSubscriptionRoute,
  listMessagesRoute,
  listSubscriptionsRoute,
  updateSubscriptionRoute,
} from "@/lib/webhook-subscriptions/http";
import {
  closeConversationRoute,
  getConversationRoute,
  listConversationsRoute,
  listMessagesRoute as listConversationMessagesRoute,
  postMessageRoute,
} from "@/lib/conversations/http";
import { table, type PublicRoute } from "@/lib/platform/http/route-table";
import { zapierMe } from "./zapier-me";

/*
 * Every key-authenticated path, once: the app/api/public route files re-export these handlers (what
 * `next dev` serves), and the production server's fast path (lib/server/fast-routes.ts) serves the same
 * table straight from node:http. Adding a public route means adding it here and re-exporting it from its
 * route file; the OpenAPI test fails while either is missing from the document. A resource's handlers
 * live with its domain (lib/<domain>/http.ts) and its toolkit in lib/api; only the connection test, which
 * belongs to no resource, lives here (zapier-me.ts).
 */

export type { PublicHandler, PublicMethod, PublicRoute, RouteParams } from "@/lib/platform/http/route-table";

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
export const conversationRoutes = {
  GET: withApiKey<{ id: string }>(getConversationRoute, { scope: "read:conversations" }),
};
export const conversationMessagesRoutes = {
  GET: withApiKey<{ id: string }>(listConversationMessagesRoute, { scope: "read:conversations" }),
  POST: withApiKey<{ id: string }>(postMessageRoute, { scope: "write:conversations" }),
};
export const conversationCloseRoutes = {
  POST: withApiKey<{ id: string }>(closeConversationRoute, { scope: "write:conversations" }),
};

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
