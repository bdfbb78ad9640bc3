import "server-only";
import crypto from "node:crypto";
import type { ApiKeyContext } from "@/lib/api/with-api-key";
import { notFoundResponse } from "@/lib/api/with-api-key";
import { errorResponse, jsonResponse } from "@/lib/platform/http/api-error";
import { parseJsonObject, readRawBody } from "@/lib/api/body";
import { withIdempotency, type StoredAnswer } from "@/lib/api/idempotency";
import { listResponse } from "@/lib/api/list";
import { getByIdRoute, readJsonInput, readQuery } from "@/lib/api/request";
import { invalidRequestResponse } from "@/lib/api/validation";
import { listOutboundMessages, listSubscriptions, type OutboundMessageView } from "./lists";
import { serializeSubscription, type SubscriptionContext, type SubscriptionFailure } from "./model";
import {
  createSubscriptionSchema,
  listMessagesQuerySchema,
  listSubscriptionsQuerySchema,
  updateSubscriptionSchema,
} from "./schemas";
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  subscriptionWithSecret,
  updateSubscription,
} from "./store";
import { parseDetailed } from "./validation";

/*
 * The subscription paths of the public API (scope `webhooks`): Zapier-style REST hooks subscribe with
 * POST and unsubscribe with DELETE. Answers follow the public API conventions (docs/outbound-webhooks.md):
 * 400 invalid_request with per-field details (URL problems carry a `reason` code), 404 not_found for ids
 * outside the key's account, 403 plan_limit_reached at the plan's cap, Idempotency-Key on POST.
 */

type IdParams = { id: string };

function subscriptionContext({ account, key }: ApiKeyContext<unknown>): SubscriptionContext {
  return { accountId: account.id, actor: { type: "api_key", apiKeyId: key.id, name: key.name, prefix: key.prefix } };
}

function failureResponse(failure: SubscriptionFailure): Response {
  switch (failure.code) {
    case "invalid":
      return invalidRequestResponse(failure.details);
    case "not_found":
      return notFoundResponse("webhook subscription");
    case "plan_limit_reached":
      return errorResponse(
        403,
        "plan_limit_reached",
        `Your plan allows ${failure.limit} webhook subscriptions. Delete one you no longer use, or upgrade the plan.`,
        {
          details: [{ limit: failure.limit, message: `At most ${failure.limit} subscriptions on this plan.` }],
        },
      );
  }
}

const sameSecret = (a: string, b: string) =>
  a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A replayed subscribe shows the secret only while it still signs as the current one: 404 once the
 * subscription is gone, its state without the secret (200) once the secret was rotated; otherwise the first
 * answer byte for byte, so Zapier's retried subscribe keeps working (docs/outbound-webhooks.md, "Idempotency").
 */
function subscribeReplayCheck(accountId: string) {
  return async (answer: StoredAnswer): Promise<Response | null> => {
    if (answer.status !== 201) return null; // A refusal carries no secret.
    const first = JSON.parse(answer.body) as { id: string; secret: string };
    const current = await subscriptionWithSecret(accountId, first.id);
    if (!current) return notFoundResponse("webhook subscription");
    if (sameSecret(current.secret, first.secret)) return null;
    const location = `/api/public/webhooks/${first.id}`;
    return jsonResponse(serializeSubscription(current.subscription), { headers: { Location: location } });
  };
}

/**
 * POST /api/public/webhooks → 201 with the subscription and its secret (shown this once; a replay under
 * the same Idempotency-Key shows it again, from an answer stored encrypted, while it is still current).
 */
export async function createSubscriptionRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const raw = await readRawBody(request);
  if (!raw.ok) return raw.response;
  return withIdempotency(
    request,
    context,
    raw.bytes,
    async () => {
      const json = parseJsonObject(raw.bytes);
      if (!json.ok) return json.response;
      const input = parseDetailed(createSubscriptionSchema, json.value);
      if (!input.ok) return invalidRequestResponse(input.details);
      const result = await createSubscription(subscriptionContext(context), input.value);
      if (!result.ok) return failureResponse(result);
      const body = { ...serializeSubscription(result.subscription), secret: result.secret };
      return jsonResponse(body, {
        status: 201,
        headers: { Location: `/api/public/webhooks/${result.subscription.id}` },
      });
      // The answer carries the signing secret: stored for replays only encrypted, replayed only while current.
    },
    { seal: true, replayCheck: subscribeReplayCheck(context.account.id) },
  );
}

/** GET /api/public/webhooks */
export async function listSubscriptionsRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const query = readQuery(request, listSubscriptionsQuerySchema, parseDetailed);
  if (!query.ok) return query.response;
  const page = await listSubscriptions(context.account.id, query.value);
  return listResponse({ ...page, data: page.data.map(serializeSubscription) });
}

/** GET /api/public/webhooks/{id} */
export const getSubscriptionRoute = getByIdRoute("webhook subscription", getSubscription, serializeSubscription);

/** PATCH /api/public/webhooks/{id}: a partial update. */
export async function updateSubscriptionRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  const input = await readJsonInput(request, updateSubscriptionSchema, parseDetailed);
  if (!input.ok) return input.response;
  const result = await updateSubscription(subscriptionContext(context), id, input.value);
  return result.ok ? jsonResponse(serializeSubscription(result.subscription)) : failureResponse(result);
}

/** DELETE /api/public/webhooks/{id} → 204 (Zapier's unsubscribe). */
export async function deleteSubscriptionRoute(_request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  const result = await deleteSubscription(subscriptionContext(context), id);
  return result.ok
    ? new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } })
    : failureResponse(result);
}

/** The notification exactly as receivers get it: `{id, type, created_at, data}`. */
export function serializeMessage(message: OutboundMessageView) {
  const payload = (message.payload ?? {}) as { data?: unknown };
  return {
    id: message.id,
    type: message.type,
    created_at: message.createdAt.toISOString(),
    data: payload.data ?? null,
  };
}

/** GET /api/public/webhook-events: recent notifications, newest first (sample data, polling fallback). */
export async function listMessagesRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const query = readQuery(request, listMessagesQuerySchema, parseDetailed);
  if (!query.ok) return query.response;
  const page = await listOutboundMessages(context.account.id, query.value);
  return listResponse({ ...page, data: page.data.map(serializeMessage) });
}
