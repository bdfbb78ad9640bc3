/*
 * Every `error.code` the HTTP APIs can send (the public API, the events webhook, the chat widget's visitor
 * endpoints and the dashboard's JSON routes), with its status and meaning. errorResponse() only takes these,
 * so a new code must be added here first; tests/unit/error-codes.test.ts checks that each one is sent
 * somewhere and described in the OpenAPI document (when `openapi`) and in docs/.
 */

type CodeSpec = { status: number; meaning: string; openapi: boolean };

const CODES = {
  invalid_request: {
    status: 400,
    meaning: "A field, header or query parameter is not valid; see details.",
    openapi: true,
  },
  invalid_json: { status: 400, meaning: "The body is not valid JSON.", openapi: true },
  invalid_payload: {
    status: 400,
    meaning: "The webhook body is not a valid event action; see details.",
    openapi: true,
  },
  invalid_timestamp: {
    status: 400,
    meaning: "The webhook timestamp is missing, malformed or too far off.",
    openapi: true,
  },
  unauthorized: { status: 401, meaning: "No API key or session was sent.", openapi: true },
  invalid_token: { status: 401, meaning: "The API key is malformed, unknown, revoked or expired.", openapi: true },
  invalid_signature: { status: 401, meaning: "The webhook signature is missing or does not match.", openapi: true },
  insufficient_scope: { status: 403, meaning: "The API key lacks the scope this route needs.", openapi: true },
  plan_limit_reached: { status: 403, meaning: "The change would go beyond the account's plan.", openapi: true },
  source_inactive: { status: 403, meaning: "The webhook source is switched off.", openapi: true },
  not_found: { status: 404, meaning: "No such path, or no such resource in the caller's account.", openapi: true },
  source_not_found: { status: 404, meaning: "No webhook source has this id.", openapi: true },
  event_not_found: { status: 404, meaning: "The webhook's cancel or delete names no existing event.", openapi: true },
  method_not_allowed: {
    status: 405,
    meaning: "The path does not take this method; Allow lists those it does.",
    openapi: false,
  },
  lead_exists: { status: 409, meaning: "The email belongs to another lead of the account.", openapi: true },
  idempotency_key_reused: {
    status: 409,
    meaning: "The Idempotency-Key was used for a different request.",
    openapi: true,
  },
  idempotency_request_in_progress: {
    status: 409,
    meaning: "The first request with this Idempotency-Key is still running.",
    openapi: true,
  },
  conversation_not_in_handoff: { status: 409, meaning: "The conversation is not waiting for a person.", openapi: true },
  conversation_closed: { status: 409, meaning: "The visitor's conversation is closed.", openapi: false },
  payload_too_large: {
    status: 413,
    meaning: "The body is larger than the route's limit; it was not read.",
    openapi: true,
  },
  unsupported_media_type: { status: 415, meaning: "The visitor endpoint takes JSON only.", openapi: false },
  rate_limited: { status: 429, meaning: "Too many requests in this window; wait Retry-After seconds.", openapi: true },
  internal_error: { status: 500, meaning: "An unexpected error; its cause is not disclosed.", openapi: true },
  unavailable: { status: 503, meaning: "The database cannot be reached; nothing was changed.", openapi: true },
} as const satisfies Record<string, CodeSpec>;

export type ApiErrorCode = keyof typeof CODES;

export const API_ERROR_CODES: Readonly<Record<ApiErrorCode, CodeSpec>> = CODES;

export const API_ERROR_CODE_NAMES = Object.keys(CODES) as ApiErrorCode[];

/** The status a code is always sent with. */
export function statusOf(code: ApiErrorCode): number {
  return CODES[code].status;
}
