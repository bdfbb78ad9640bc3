import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { EVENT_LIMITS, eventFieldsSchema, eventIdentitySchema } from "@/lib/events/schema";
import { MAX_BODY_BYTES } from "@/lib/events-webhook/body";
import { ACTIONS } from "@/lib/events-webhook/payload";
import { TIMESTAMP_TOLERANCE_SECONDS } from "@/lib/events-webhook/signature";
import {
  errorResponse,
  internalError,
  jsonResponse,
  payloadTooLarge,
  rateLimited,
  rateLimitHeaders,
  unavailable,
} from "./common";

/*
 * The inbound Events Webhook (docs/webhook.md): signed with an HMAC, not an API key. The event fields
 * are the schemas the webhook validates with (lib/events/schema.ts). Their limits are refinements, which
 * a JSON Schema cannot read, so they are added here from the same EVENT_LIMITS; `.meta()` on a schema
 * returns an annotated copy that validates exactly as the original.
 */

type JsonSchema = { properties?: Record<string, Record<string, unknown>> };

const FIELD_NOTES: Record<string, Record<string, unknown>> = {
  title: {
    maxLength: EVENT_LIMITS.title,
    pattern: "\\S",
    description: "Trimmed; part of the event's identity.",
    example: "Spring Open Day",
  },
  starts_at: {
    description:
      "ISO 8601 date-time; without an offset it is UTC. Part of the identity, compared as an instant. " +
      "Date-only values are refused.",
    example: "2026-05-01T10:00:00+02:00",
  },
  location: {
    maxLength: EVENT_LIMITS.location,
    description: 'Trimmed; part of the identity (missing means "").',
    example: "Main Hall",
  },
  ends_at: {
    type: ["string", "null"],
    description: 'ISO 8601 date-time, not before starts_at; null or "" for none.',
    example: "2026-05-01T16:00:00+02:00",
  },
  description: { maxLength: EVENT_LIMITS.description },
  url: {
    maxLength: EVENT_LIMITS.url,
    description: 'An absolute http(s) URL, or "" for none.',
    example: "https://example.com/open-day",
  },
  price: { maxLength: EVENT_LIMITS.price, description: "Free text.", example: "Free" },
  recurring: { description: 'null means "" (not recurring).' },
  status: { description: "Omitted or null means upcoming." },
};

function annotateEventFields({ jsonSchema }: { jsonSchema: JsonSchema }) {
  for (const [name, notes] of Object.entries(FIELD_NOTES)) {
    const property = jsonSchema.properties?.[name];
    if (property) Object.assign(property, notes);
  }
}

const upsertEvent = eventFieldsSchema.meta({
  id: "WebhookEvent",
  description: "A full replacement: omitted optional fields become empty. Unknown fields are ignored.",
  override: annotateEventFields,
});

const eventIdentity = eventIdentitySchema.meta({
  id: "WebhookEventIdentity",
  description: "Only the identity (title, starts_at, location) is read; other fields are ignored.",
  override: annotateEventFields,
});

const [UPSERT, ...IDENTITY_ACTIONS] = ACTIONS;

/** The body the webhook reads: `{action, event}` (lib/events-webhook/payload.ts checks it field by field). */
export const webhookPayloadSchema = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal(UPSERT), event: upsertEvent }).meta({ title: "upsert" }),
    z
      .object({ action: z.enum(IDENTITY_ACTIONS as ["cancel", "delete"]), event: eventIdentity })
      .meta({ title: "cancel or delete" }),
  ])
  .meta({ id: "WebhookPayload" });

const acceptedSchema = z
  .object({
    ok: z.literal(true),
    action: z.enum(ACTIONS),
    event: z.object({
      id: z.string(),
      status: z
        .enum(["upcoming", "cancelled", "deleted"])
        .meta({ description: "The event's status after the action." }),
      created: z.boolean().meta({ description: "Whether an upsert created the event (false: it replaced one)." }),
    }),
  })
  .meta({ title: "accepted" });

const duplicateSchema = z.object({ ok: z.literal(true), duplicate: z.literal(true) }).meta({
  title: "duplicate",
  description: "The same timestamp and body were already accepted for this source; not applied again.",
});

const optionalRateHeaders = Object.fromEntries(
  Object.entries(rateLimitHeaders).map(([name, schema]) => [name, schema.optional()]),
);

const signatureHeaders = z.object({
  "X-Service-Timestamp": z
    .string()
    .regex(/^[0-9]{1,12}$/)
    .meta({
      description:
        `The current Unix time in seconds; at most ${TIMESTAMP_TOLERANCE_SECONDS} s from the server's clock ` +
        `either way.`,
      example: "1767225600",
    }),
  "X-Service-Signature": z
    .string()
    .regex(/^sha256=[0-9a-f]{64}$/)
    .meta({
      description:
        '`sha256=` + the lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, ' +
        "keyed with the source's signing secret (its UTF-8 bytes).",
      example: "sha256=6cbe5e3afdac3102ccf64a95717856e8f9205b5a4515fbdcff830acff5a08c82",
    }),
});

export const webhookPaths: ZodOpenApiPathsObject = {
  "/api/v1/events/webhook/{source_id}": {
    post: {
      operationId: "eventsWebhook",
      tags: ["Events webhook"],
      summary: "Push an event action (signed)",
      description:
        "Creates or replaces (`upsert`), cancels or deletes one calendar event of the source's account. " +
        "Authenticated by the HMAC signature, " +
        "not an API key. Checks run in a fixed order and the first that fails decides the answer: source (404, " +
        "403), size (413), timestamp (400), " +
        "signature (401), duplicate (200), rate limit (429), body (400), plan limit (403), event exists (404). " +
        "See docs/webhook.md.",
      security: [],
      "x-required-scope": null,
      requestParams: {
        path: z.object({
          source_id: z.string().meta({
            description: "The source's id, from Knowledge → Events → Webhook.",
            example: "src_8ZqkWm3TnYb5Lp2RcVx7Hd4J",
          }),
        }),
        header: signatureHeaders,
      },
      requestBody: { required: true, content: { "application/json": { schema: webhookPayloadSchema } } },
      responses: {
        200: jsonResponse(
          "Accepted and committed, or a duplicate of an accepted request.",
          z.union([acceptedSchema, duplicateSchema]),
          optionalRateHeaders,
        ),
        400: errorResponse(
          "`invalid_timestamp`: X-Service-Timestamp missing, malformed or too far from the server's clock. " +
            "`invalid_json`: the body is not UTF-8 JSON. `invalid_payload`: not an object, unknown `action`, " +
            "`event` missing or a field invalid (per-field `details`, e.g. `event.title`).",
          ["invalid_timestamp", "invalid_json", "invalid_payload"],
        ),
        401: errorResponse("X-Service-Signature missing, malformed or not matching.", ["invalid_signature"]),
        403: errorResponse(
          "`source_inactive`: the source is switched off. `plan_limit_reached`: " +
            "an upsert would create an event beyond the plan's limit.",
          ["source_inactive", "plan_limit_reached"],
        ),
        404: errorResponse(
          "`source_not_found`: no source has this id. `event_not_found`: cancel or delete names no existing event.",
          ["source_not_found", "event_not_found"],
        ),
        413: payloadTooLarge(`${MAX_BODY_BYTES / 1024} KiB`),
        429: rateLimited("this source (per-source limit, default 300 per minute)"),
        500: internalError(),
        503: unavailable(),
      },
    },
  },
};
