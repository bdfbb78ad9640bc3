import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from "zod-openapi";
import type { Scope } from "@/lib/api-keys/scopes";
import { MAX_PUBLIC_BODY_BYTES } from "@/lib/api/body";
import type { ApiErrorCode } from "@/lib/platform/http/error-codes";
import { PUBLIC_IDS, type PublicIdKind } from "@/lib/platform/ids";

/*
 * What every operation of the OpenAPI document shares: the one error body (with the codes a given status
 * can carry in that operation), the rate-limit and idempotency headers, and the bearer security with the
 * scope an operation needs. Statuses and codes mirror lib/platform/http/api-error.ts, lib/api/with-api-key.ts
 * and lib/api/idempotency.ts; docs/leads-api.md and docs/webhook.md describe them in prose.
 */

/** Only codes of lib/platform/http/error-codes.ts can be documented. */
type Codes = readonly [ApiErrorCode, ...ApiErrorCode[]];

export const SECURITY_SCHEME = "apiKey";

export const errorDetailSchema = z
  .object({
    field: z
      .string()
      .optional()
      .meta({ description: "The field (dotted for nested ones, e.g. metadata.plan) or header concerned." }),
    message: z.string(),
  })
  .catchall(z.unknown())
  .meta({
    id: "ErrorDetail",
    description:
      "One problem; some codes add fields (e.g. lead_exists adds lead_id for a key with read:leads, " +
      "insufficient_scope adds scope).",
  });

/** The error body with `error.code` limited to `codes`: the answers a client must handle at this status. */
export function errorBodySchema(codes: Codes) {
  return z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.enum(codes).meta({ description: "Stable, machine-readable; branch on this, not on the message." }),
      message: z.string().meta({ description: "For the integrator; may change." }),
      details: z.array(errorDetailSchema),
    }),
  });
}

const integerHeader = (description: string) => z.number().int().min(0).meta({ description });

export const rateLimitHeaders = {
  "RateLimit-Limit": integerHeader("Requests allowed per one-minute window."),
  "RateLimit-Remaining": integerHeader("Requests left in the current window."),
  "RateLimit-Reset": integerHeader("Seconds until the window resets."),
};

const retryAfter = (description: string) => ({ "Retry-After": integerHeader(description) });

export function errorResponse(
  description: string,
  codes: Codes,
  headers?: Record<string, z.ZodType>,
): ZodOpenApiResponseObject {
  return {
    description: `${description} Codes: ${codes.map((code) => `\`${code}\``).join(", ")}.`,
    ...(headers ? { headers: z.object(headers) } : {}),
    content: { "application/json": { schema: errorBodySchema(codes) } },
  };
}

/** A JSON success answer (a bearer-key operation's is a keyedResponse). */
export function jsonResponse(
  description: string,
  schema: z.ZodType,
  headers: Record<string, z.ZodType> = {},
): ZodOpenApiResponseObject {
  return { description, headers: z.object(headers), content: { "application/json": { schema } } };
}

export const invalidRequest = (codes: Codes = ["invalid_request"]) =>
  errorResponse("The request is not valid: `details` names each field (or header) and what is wrong with it.", codes);

export const payloadTooLarge = (limit: string) =>
  errorResponse(`The body is larger than ${limit}; it was not read.`, ["payload_too_large"]);

export const rateLimited = (what: string) =>
  errorResponse(
    `Too many requests for ${what} in this minute. Wait \`Retry-After\` seconds, then retry with backoff.`,
    ["rate_limited"],
    {
      ...rateLimitHeaders,
      ...retryAfter("Seconds to wait before retrying."),
    },
  );

export const unavailable = () =>
  errorResponse(
    "The database cannot be reached; nothing was changed. Retry after `Retry-After` seconds.",
    ["unavailable"],
    retryAfter("Seconds to wait before retrying."),
  );

export const internalError = () =>
  errorResponse("An unexpected error; nothing is said about its cause. Retry later.", ["internal_error"]);

/** Other 403 answers an operation gives besides insufficient_scope (e.g. plan_limit_reached). */
export type ExtraForbidden = { codes: Codes; description: string };

/** The answers of lib/api/with-api-key.ts that any bearer-key operation may give. */
export function apiKeyResponses(scope: Scope | null, forbidden?: ExtraForbidden): ZodOpenApiResponsesObject {
  const scopeText = `The key lacks the \`${scope}\` scope; \`details[0].scope\` names it.`;
  return {
    401: errorResponse(
      "No API key (`unauthorized`), or a malformed, unknown, revoked or expired one (`invalid_token`). " +
        "`WWW-Authenticate` carries the Bearer challenge.",
      ["unauthorized", "invalid_token"],
      { "WWW-Authenticate": z.string().meta({ example: 'Bearer realm="api", error="invalid_token"' }) },
    ),
    ...(scope
      ? {
          403: errorResponse(
            forbidden ? `${scopeText} ${forbidden.description}` : scopeText,
            ["insufficient_scope", ...(forbidden?.codes ?? [])],
            {
              // Only insufficient_scope carries the challenge.
              "WWW-Authenticate": (forbidden ? z.string().optional() : z.string()).meta({
                example: `Bearer error="insufficient_scope", scope="${scope}"`,
              }),
            },
          ),
        }
      : {}),
    429: rateLimited("this API key"),
    500: internalError(),
    503: unavailable(),
  };
}

/** Security and scope of a bearer-key operation: machine-readable (`x-required-scope`) and in its text. */
export function apiKeyOperation(
  scope: Scope | null,
  operation: ZodOpenApiOperationObject,
  forbidden?: ExtraForbidden,
): ZodOpenApiOperationObject {
  const scopeText = scope
    ? `Requires an API key with the \`${scope}\` scope.`
    : "Any valid API key may call it, whatever its scopes.";
  return {
    ...operation,
    description: [operation.description, `**Scope:** ${scopeText}`].filter(Boolean).join("\n\n"),
    security: [{ [SECURITY_SCHEME]: scope ? [scope] : [] }],
    "x-required-scope": scope,
    responses: { ...operation.responses, ...apiKeyResponses(scope, forbidden) },
  };
}

export const idempotencyKeyHeader = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7e]+$/)
  .optional()
  .meta({
    description:
      "Makes a retry safe: the first answer for this key (per API key) is stored for 24 hours and replayed " +
      "with `Idempotent-Replayed: true`. The same key with a different body is 409 `idempotency_key_reused`. " +
      "Up to 255 printable ASCII characters, e.g. a UUID.",
    example: "7f3c1a52-5f7e-4f57-9c55-0c6d1d1b2f10",
  });

export const idempotentReplayedHeader = {
  "Idempotent-Replayed": z.literal("true").optional().meta({
    description: "Present when this is the stored answer to an earlier request with the same Idempotency-Key.",
  }),
};

const CONFLICTS = {
  lead_exists: "`lead_exists`: the email belongs to another lead of the account; `details[0].lead_id` is its id.",
  idempotency_key_reused:
    "`idempotency_key_reused`: this Idempotency-Key was used for a different request; use a new key per request.",
  idempotency_request_in_progress:
    "`idempotency_request_in_progress`: the first request with this Idempotency-Key is still running; " +
    "retry after `Retry-After` seconds.",
} as const;

export type ConflictCode = keyof typeof CONFLICTS;

export function conflictResponse(codes: readonly [ConflictCode, ...ConflictCode[]]): ZodOpenApiResponseObject {
  const response = errorResponse(codes.map((code) => CONFLICTS[code]).join(" "), codes);
  if (!codes.includes("idempotency_request_in_progress")) return response;
  return {
    ...response,
    headers: z.object({
      "Retry-After": integerHeader(
        "Seconds to wait before retrying (idempotency_request_in_progress only).",
      ).optional(),
    }),
  };
}

/** POST answers run under the Idempotency-Key (lib/api/idempotency.ts). */
export const IDEMPOTENCY_CONFLICTS = ["idempotency_key_reused", "idempotency_request_in_progress"] as const;

/** `{data, has_more, next_cursor}`, the answer of every public list (lib/api/list.ts). */
export function listEnvelope(item: z.ZodType, id: string) {
  return z
    .object({
      data: z.array(item),
      has_more: z.boolean().meta({ description: "Whether another page follows." }),
      next_cursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as `cursor` to read the next page; null on the last page." }),
    })
    .meta({ id });
}

/** A bearer-key operation's success answer: its own `headers`, then the key's rate budget. */
export const keyedResponse = (description: string, schema: z.ZodType, headers: Record<string, z.ZodType> = {}) =>
  jsonResponse(description, schema, { ...headers, ...rateLimitHeaders });

/** The success answer of a request run under its Idempotency-Key: it may be the stored first answer, replayed. */
export const replayableResponse = (description: string, schema: z.ZodType, headers: Record<string, z.ZodType> = {}) =>
  keyedResponse(description, schema, { ...headers, ...idempotentReplayedHeader });

/** The `Location` header of a 201: the new resource's path. */
export const locationHeader = (noun: string, example: string) => ({
  Location: z.string().meta({ description: `The new ${noun}'s path.`, example }),
});

/** A page of a public list of `item` (the envelope's schema is named `id`). */
export const pageResponse = (description: string, item: z.ZodType, id: string) =>
  keyedResponse(description, listEnvelope(item, id));

/** An instant as the public API writes it: ISO 8601 in UTC. */
export const instant = (description: string) =>
  z.string().meta({ format: "date-time", description, example: "2026-01-31T09:00:00.000Z" });

/** A required JSON request body validated by `schema`. */
export const jsonBody = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema } } });

/** The public API's body limit in words, for 413 descriptions. */
export const BODY_LIMIT = `${MAX_PUBLIC_BODY_BYTES / 1024} KiB`;

/** Sent on a POST that may be retried (its answer is stored and replayed). */
export const idempotencyKeyParams = z.object({ "Idempotency-Key": idempotencyKeyHeader });

/** A resource's public id as the registry (lib/platform/ids.ts) draws it. */
export function publicIdSchema(kind: PublicIdKind, example: string) {
  const { prefix, length } = PUBLIC_IDS[kind];
  return z.string().meta({ description: `Public id, \`${prefix}\` + ${length} letters and digits.`, example });
}

/**
 * The `{id}` of a resource's paths and its 404: an id of another account answers like an unknown one, so
 * that a key cannot learn which ids exist elsewhere.
 */
export function idPath(noun: string, example: string) {
  return {
    params: z.object({
      id: z.string().meta({
        description: `The ${noun}'s id. An id of another account's ${noun} is 404, like an unknown one.`,
        example,
      }),
    }),
    notFound: errorResponse(`No ${noun} with this id in the key's account.`, ["not_found"]),
  };
}

/** The refusals of a route that reads a JSON body (lib/api/body.ts) besides its own: bad JSON, too large. */
export const jsonBodyErrors = () => ({
  400: invalidRequest(["invalid_request", "invalid_json"]),
  413: payloadTooLarge(BODY_LIMIT),
});

/** An operation with, in place of `requestBody`, the schema of its JSON body if it takes one. */
export type BodyOperation = Omit<ZodOpenApiOperationObject, "requestBody"> & { body?: z.ZodType };

/**
 * An operation that reads a JSON body (lib/api/body.ts) validated by `body`: the body, and its refusals besides
 * the operation's own answers.
 */
export function jsonBodyOperation({ body, ...operation }: BodyOperation): ZodOpenApiOperationObject {
  if (!body) return operation;
  return { ...operation, requestBody: jsonBody(body), responses: { ...jsonBodyErrors(), ...operation.responses } };
}

/**
 * A POST run under its Idempotency-Key (lib/api/idempotency.ts): the key's header, its JSON body if it takes
 * one, and a 409 with the `conflicts` it can answer (the key reused or still running, unless it names more).
 * An operation that describes a status itself (e.g. a 409 with its own text) keeps its answer.
 */
export function idempotentPost(
  operation: BodyOperation,
  conflicts: readonly [ConflictCode, ...ConflictCode[]] = IDEMPOTENCY_CONFLICTS,
): ZodOpenApiOperationObject {
  const withBody = jsonBodyOperation(operation);
  return {
    ...withBody,
    requestParams: { ...withBody.requestParams, header: idempotencyKeyParams },
    responses: { 409: conflictResponse(conflicts), ...withBody.responses },
  };
}
