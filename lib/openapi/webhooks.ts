import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { EVENT_TYPES } from "@/lib/webhook-subscriptions/catalogue";
import { SUBSCRIPTION_LIMITS } from "@/lib/webhook-subscriptions/model";
import {
  createSubscriptionSchema,
  listMessagesQuerySchema,
  listSubscriptionsQuerySchema,
  updateSubscriptionSchema,
} from "@/lib/webhook-subscriptions/schemas";
import {
  apiKeyOperation,
  errorResponse,
  idempotentPost,
  idPath,
  instant,
  invalidRequest,
  jsonBody,
  jsonBodyOperation,
  keyedResponse,
  locationHeader,
  pageResponse,
  publicIdSchema,
  rateLimitHeaders,
  replayableResponse,
} from "./common";

/*
 * Webhook subscriptions and outbound notifications (lib/webhook-subscriptions/http.ts; docs/outbound-webhooks.md).
 * Requests are described by the schemas that validate them; answers follow serializeSubscription and
 * serializeMessage. `outboundWebhooks` describes what a subscriber receives (the document's `webhooks`).
 */

const subscriptionId = publicIdSchema("subscription", "whsub_7QmZ2kTn4VbX9cRf1LpH3a");

const subscriptionFields = {
  id: subscriptionId,
  url: z.string().meta({ format: "uri", example: "https://hooks.example.com/incoming" }),
  event_types: z
    .array(z.string())
    .meta({ description: 'Catalogue types, "<group>.*" wildcards, or ["*"] for all.', example: ["lead.created"] }),
  description: z.string().meta({ description: '"" when none.' }),
  status: z.enum(["active", "disabled"]),
  disabled_reason: z.string().nullable().meta({
    description: "Why it is disabled (a 410 from the receiver, 5 days of failures, or by hand); null when active.",
  }),
  created_at: instant("When the subscription was created (UTC)."),
  updated_at: instant("When it last changed (UTC)."),
};

export const subscriptionSchema = z.object(subscriptionFields).meta({ id: "WebhookSubscription" });

const createdSubscriptionSchema = z
  .object({
    ...subscriptionFields,
    secret: z.string().meta({
      description:
        "The signing secret, `whsec_` + base64 of 32 random bytes. Shown only in this answer; " +
        "store it now (owners and admins can reveal it in the dashboard).",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3H6KpOaXHT0=",
    }),
  })
  .meta({ id: "CreatedWebhookSubscription" });

export const notificationSchema = z
  .object({
    id: z.string().meta({
      description: "`whmsg_…`: stable across retries (also in `webhook-id`); de-duplicate by it.",
      example: "whmsg_19de28d3c7b4RtY8uIo2PaS6dFg0HjK1l",
    }),
    type: z.enum(EVENT_TYPES),
    created_at: instant("When the change happened (UTC)."),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "The object as the API returns it: a Lead for lead.* (lead.stage_changed adds `previous_stage`), " +
        "a Conversation for conversation.*, " +
        "a ConversationMessage for message.created (visitor and agent messages), " +
        "a calendar event for event.* (with `recurring` and " +
        "`next_occurrence_at`: the UTC start of its occurrence that had not ended at the change, " +
        "null when none is left or it is cancelled).",
    }),
  })
  .meta({ id: "WebhookNotification" });

const { params: idParams, notFound } = idPath("subscription", "whsub_7QmZ2kTn4VbX9cRf1LpH3a");
const TAGS = ["Webhook subscriptions"];

const URL_RULES =
  "`url` must be https (at most 2,048 characters, no user name or password) on port 443 or 1024–65535, " +
  "and its host must not be, or resolve to, a loopback, private, link-local, " +
  "multicast, CGNAT, benchmarking, documentation or reserved address (IPv4 or IPv6, " +
  "including IPv4-mapped forms). A refused URL is 400 `invalid_request` " +
  "with `details[0].reason`: `invalid_url`, `url_too_long`, `scheme_not_allowed`, `credentials_not_allowed`, " +
  "`port_not_allowed` or `private_address` " +
  "(also for a host name that does not resolve: the answer does not tell the two apart). " +
  "Event type problems carry `unknown_event_type`, `empty_event_types` or `required`.";

export const subscriptionPaths: ZodOpenApiPathsObject = {
  "/api/public/webhooks": {
    get: apiKeyOperation("webhooks", {
      operationId: "listWebhookSubscriptions",
      tags: TAGS,
      summary: "List webhook subscriptions",
      description: "Newest first, paged by cursor.",
      requestParams: { query: listSubscriptionsQuerySchema },
      responses: {
        200: pageResponse("A page of subscriptions.", subscriptionSchema, "WebhookSubscriptionList"),
        400: invalidRequest(),
      },
    }),
    post: apiKeyOperation(
      "webhooks",
      idempotentPost({
        operationId: "createWebhookSubscription",
        tags: TAGS,
        summary: "Subscribe (REST hook)",
        description:
          `Subscribes \`url\` to the listed event types; the answer carries the signing secret, once. ` +
          `Zapier's legacy \`{"target_url", "event"}\` is accepted too. ${URL_RULES} ` +
          `At most ${SUBSCRIPTION_LIMITS.free} subscriptions on the Free plan and ${SUBSCRIPTION_LIMITS.pro} ` +
          `on Pro (403 \`plan_limit_reached\`).`,
        body: createSubscriptionSchema,
        responses: {
          201: replayableResponse(
            "The subscription was created.",
            createdSubscriptionSchema,
            locationHeader("subscription", "/api/public/webhooks/whsub_7QmZ2kTn4VbX9cRf1LpH3a"),
          ),
          // A replay (Idempotent-Replayed: true) shows the secret only while it is still the current one.
          200: replayableResponse(
            "A replay after the subscription's secret was rotated: its current state, without a secret.",
            subscriptionSchema,
          ),
          404: errorResponse("A replay after the subscription was deleted.", ["not_found"]),
        },
      }),
      {
        codes: ["plan_limit_reached"],
        description: "`plan_limit_reached`: the plan's subscription limit is reached; `details[0].limit` is the limit.",
      },
    ),
  },
  "/api/public/webhooks/{id}": {
    get: apiKeyOperation("webhooks", {
      operationId: "getWebhookSubscription",
      tags: TAGS,
      summary: "Get a webhook subscription",
      requestParams: { path: idParams },
      responses: {
        200: keyedResponse("The subscription (never its secret).", subscriptionSchema),
        404: notFound,
      },
    }),
    patch: apiKeyOperation(
      "webhooks",
      jsonBodyOperation({
        operationId: "updateWebhookSubscription",
        tags: TAGS,
        summary: "Update a webhook subscription",
        description:
          `A partial update. \`status: "disabled"\` stops deliveries; \`status: ` +
          `"active"\` re-enables and clears \`disabled_reason\`. ${URL_RULES}`,
        requestParams: { path: idParams },
        body: updateSubscriptionSchema,
        responses: {
          200: keyedResponse("The updated subscription.", subscriptionSchema),
          404: notFound,
        },
      }),
    ),
    delete: apiKeyOperation("webhooks", {
      operationId: "deleteWebhookSubscription",
      tags: TAGS,
      summary: "Unsubscribe",
      description: "Deletes the subscription; nothing more is sent to it. Zapier's REST-hook unsubscribe.",
      requestParams: { path: idParams },
      responses: {
        204: { description: "Deleted; the body is empty.", headers: z.object(rateLimitHeaders) },
        404: notFound,
      },
    }),
  },
  "/api/public/webhook-events": {
    get: apiKeyOperation("webhooks", {
      operationId: "listWebhookEvents",
      tags: TAGS,
      summary: "List recent notifications",
      description:
        "The account's notifications, newest first, each exactly as subscribers receive it: " +
        "sample data and a polling fallback for triggers.",
      requestParams: { query: listMessagesQuerySchema },
      responses: {
        200: pageResponse("A page of notifications.", notificationSchema, "WebhookNotificationList"),
        400: invalidRequest(),
      },
    }),
  },
};

const signatureHeaders = z.object({
  "webhook-id": z.string().meta({
    description: "The notification's id (`whmsg_…`), the same on every retry.",
    example: "whmsg_19de28d3c7b4RtY8uIo2PaS6dFg0HjK1l",
  }),
  "webhook-timestamp": z.string().meta({
    description: "Unix seconds when this attempt was signed. Reject values far from your clock.",
    example: "1767258000",
  }),
  "webhook-signature": z.string().meta({
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` over `webhook-id + "." + webhook-timestamp + "." + body`, ' +
      "keyed with the base64-decoded part of the secret after `whsec_`. " +
      "During 24 hours after a rotation there are two signatures (new and old secret): " +
      "accept the request if any matches. Any Standard Webhooks library verifies it.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

/** What a subscriber receives: the document's `webhooks` section (OpenAPI 3.1). */
export const outboundWebhooks: ZodOpenApiPathsObject = {
  notification: {
    post: {
      operationId: "receiveNotification",
      tags: TAGS,
      summary: "A notification to a subscription",
      description:
        "POSTed to the subscription's `url` for each matching change, signed as Standard Webhooks. " +
        "Answer 2xx within 15 seconds; other answers and timeouts are retried " +
        "(after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter; `Retry-After` on 429 and 503 is " +
        "honoured). Redirects are not followed. `410 Gone` disables the subscription. " +
        "Order is not guaranteed; de-duplicate by `id`.",
      requestParams: { header: signatureHeaders },
      requestBody: jsonBody(notificationSchema),
      responses: {
        200: { description: "Any 2xx: delivered." },
        410: { description: "Gone: the subscription is disabled at once (Zapier's answer when a Zap is turned off)." },
      },
    },
  },
};
