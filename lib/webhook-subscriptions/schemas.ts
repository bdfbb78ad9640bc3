import { z } from "zod";
import { isPublicId } from "@/lib/platform/ids";
import { cursorParam, limitParam, orderParam } from "@/lib/api/list";
import { EVENT_GROUPS, EVENT_TYPES, isEventType, isSubscribableType, normaliseEventTypes } from "./catalogue";
import { MAX_TARGET_URL_LENGTH } from "./target-url";

/*
 * Request schemas of the subscriptions API; the OpenAPI document (lib/openapi/webhooks.ts) describes the
 * API with these same schemas. Pure validation: the URL's SSRF rules need DNS and run afterwards
 * (target-url.ts). Issues may carry `params.reason`, a stable code copied into the error's details.
 */

export const MAX_DESCRIPTION_LENGTH = 200;
export const MAX_EVENT_TYPES = 50;

const CATALOGUE_TEXT =
  `${EVENT_TYPES.join(", ")}; "<group>.*" (${EVENT_GROUPS.map((group) => `${group}.*`).join(", ")}); ` +
  `or "*" for all`;

const url = z.string({ error: "Must be a string: the https URL to send notifications to." }).meta({
  format: "uri",
  maxLength: MAX_TARGET_URL_LENGTH,
  description: "Where notifications are POSTed: https, a public host (see SSRF rules).",
  example: "https://hooks.example.com/incoming",
});

const eventType = z.string({ error: "Must be a string." });

const eventTypes = z
  .array(eventType, { error: "Must be an array of event types." })
  .superRefine((types, ctx) => {
    if (types.length === 0) {
      ctx.addIssue({
        code: "custom",
        message: 'List at least one event type, or ["*"] for all.',
        params: { reason: "empty_event_types" },
      });
      return;
    }
    if (types.length > MAX_EVENT_TYPES) {
      ctx.addIssue({
        code: "custom",
        message: `List at most ${MAX_EVENT_TYPES} event types.`,
        params: { reason: "too_many_event_types" },
      });
      return;
    }
    types.forEach((type, index) => {
      if (!isSubscribableType(type)) {
        ctx.addIssue({
          code: "custom",
          path: [index],
          message: `Unknown event type "${type}". Use one of: ${CATALOGUE_TEXT}.`,
          params: { reason: "unknown_event_type" },
        });
      }
    });
  })
  .transform(normaliseEventTypes)
  .meta({
    description: `One or more of: ${CATALOGUE_TEXT}.`,
    example: ["lead.created", "lead.stage_changed"],
    minItems: 1,
    maxItems: MAX_EVENT_TYPES,
  });

const descriptionText = z
  .string({ error: "Must be a string." })
  .trim()
  .max(MAX_DESCRIPTION_LENGTH, `Use at most ${MAX_DESCRIPTION_LENGTH} characters.`);

const descriptionMeta = {
  maxLength: MAX_DESCRIPTION_LENGTH,
  description: "A note for people, e.g. which Zap this is.",
  example: "Zapier: new leads to Slack",
};
const description = descriptionText
  .nullish()
  .transform((value) => value ?? "")
  .meta(descriptionMeta);
/** On PATCH: not sent stays; null or "" clears. */
const descriptionChange = descriptionText
  .nullish()
  .transform((value) => (value === undefined ? undefined : (value ?? "")))
  .meta(descriptionMeta);

const objectError = { error: "The body must be a JSON object." };

/** POST /api/public/webhooks: `url` + `event_types`, or Zapier's legacy `target_url` + `event`. */
export const createSubscriptionSchema = z
  .object(
    {
      url: url.optional(),
      target_url: url
        .optional()
        .meta({ description: "Legacy name of `url` (Zapier REST hooks); `url` wins when both are sent." }),
      event_types: eventTypes.optional(),
      event: eventType.optional().meta({
        description: "Legacy: a single event type, the same as `event_types: [event]`.",
        example: "lead.created",
      }),
      description,
    },
    objectError,
  )
  .superRefine((body, ctx) => {
    if (body.url === undefined && body.target_url === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message: "Required: the https URL to send notifications to.",
        params: { reason: "required" },
      });
    }
    if (body.event_types === undefined) {
      if (body.event === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["event_types"],
          message: 'Required: a list of event types, or ["*"] for all.',
          params: { reason: "required" },
        });
      } else if (!isSubscribableType(body.event)) {
        ctx.addIssue({
          code: "custom",
          path: ["event"],
          message: `Unknown event type "${body.event}". Use one of: ${CATALOGUE_TEXT}.`,
          params: { reason: "unknown_event_type" },
        });
      }
    }
  })
  .transform((body) => ({
    url: (body.url ?? body.target_url) as string,
    urlField: body.url === undefined ? "target_url" : "url",
    eventTypes: body.event_types ?? [body.event as string],
    description: body.description,
  }))
  .meta({
    id: "CreateWebhookSubscriptionRequest",
    description: "Send `url` and `event_types` (or the legacy `target_url` and `event`). Unknown fields are ignored.",
  });

export type CreateSubscriptionBody = z.output<typeof createSubscriptionSchema>;

/** PATCH /api/public/webhooks/{id}: only the fields sent change. */
export const updateSubscriptionSchema = z
  .object(
    {
      url: url.optional(),
      event_types: eventTypes.optional(),
      description: descriptionChange,
      status: z
        .enum(["active", "disabled"], { error: "Must be active or disabled." })
        .optional()
        .meta({ description: "disabled stops deliveries; active re-enables (and clears disabled_reason)." }),
    },
    objectError,
  )
  .transform((body) => ({
    url: body.url,
    eventTypes: body.event_types,
    description: body.description,
    status: body.status,
  }))
  .meta({ id: "UpdateWebhookSubscriptionRequest", description: "A partial update: fields not sent stay as they are." });

export type UpdateSubscriptionBody = z.output<typeof updateSubscriptionSchema>;

export type Keyset = { createdAt: string; id: string };
export const SUBSCRIPTION_CURSOR = { tag: "webhooks", parts: ["timestamptz", "text"] } as const;
export const MESSAGE_CURSOR = { tag: "webhook-events", parts: ["timestamptz", "text"] } as const;

const accept =
  (valid: (id: string) => boolean) =>
  ([createdAt, id]: string[]): Keyset | null =>
    valid(id) ? { createdAt, id } : null;

/**
 * A notification id: the prefix, 11 hexadecimal digits of the time it was drawn (ids drawn before
 * migration outbound_message_ids_time_ordered have none), and 22 random base62 characters.
 */
export const isMessageId = (id: string) => isPublicId(id, "notification");

/** GET /api/public/webhooks */
export const listSubscriptionsQuerySchema = z.object({
  limit: limitParam,
  order: orderParam,
  cursor: cursorParam(
    SUBSCRIPTION_CURSOR.tag,
    SUBSCRIPTION_CURSOR.parts,
    accept((id) => isPublicId(id, "subscription")),
  ),
});

/** GET /api/public/webhook-events */
export const listMessagesQuerySchema = z.object({
  limit: limitParam,
  order: orderParam,
  cursor: cursorParam(MESSAGE_CURSOR.tag, MESSAGE_CURSOR.parts, accept(isMessageId)),
  type: z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || value === "" || isEventType(value),
      `Unknown event type. Use one of: ${EVENT_TYPES.join(", ")}.`,
    )
    .transform((value) => value || null)
    .meta({ description: "Only notifications of this type.", example: "lead.created", enum: [...EVENT_TYPES] }),
});
