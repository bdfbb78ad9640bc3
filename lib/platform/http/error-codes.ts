/*
 * Every `error.code` the HTTP APIs can send (the public API, the events webhook, the chat widget's visitor
 * endpoints and the dashboard's JSON routes), with its status and meaning. errorResponse() only takes these,
 * so a new code must be added here first; tests/unit/error-codes.test.ts checks that each one is sent
 * somewhere and described in the OpenAPI document (when `openapi`) and in docs/.
 */

type CodeSpec = { status: number; meaning: string; openapi: boolean };

// A code is described in the OpenAPI document unless it says `openapi: false`.
const CODES = {
  invalid_request: { status: 400, meaning: "A field, header or query parameter is not valid; see details." },
  invalid_json: { status: 400, meaning: "The body is not valid JSON." },
  invalid_payload: { status: 400, meaning: "The webhook body is not a valid event action; see details." },
  invalid_timestamp: { status: 400, meaning: "The webhook timestamp is missing, malformed or too far off." },
  unauthorized: { status: 401, meaning: "No API key or session was sent." },
  invalid_token: { status: 401, meaning: "The API key is malformed, unknown, revoked or expired." },
  invalid_signature: { status: 401, meaning: "The webhook signature is missing or does not match." },
  insufficient_scope: { status: 403, meaning: "The API key lacks the scope this route needs." },
  plan_limit_reached: { status: 403, meaning: "The change would go beyond the account's plan." },
  source_inactive: { status: 403, meaning: "The webhook source is switched off." },
  not_found: { status: 404, meaning: "No such path, or no such resource in the caller's account." },
  source_not_found: { status: 404, meaning: "No webhook source has this id." },
  event_not_found: { status: 404, meaning: "The webhook's cancel or delete names no existing event." },
  method_not_allowed: {
    status: 405,
    meaning: "The path does not take this method; Allow lists those it does.",
    openapi: false,
  },
  lead_exists: { status: 409, meaning: "The email belongs to another lead of the account." },
  idempotency_key_reused: { status: 409, meaning: "The Idempotency-Key was used for a different request." },
  idempotency_request_in_progress: {
    status: 409,
    meaning: "The first request with this Idempotency-Key is still running.",
  },
  conversation_not_in_handoff: { status: 409, meaning: "The conversation is not waiting for a person." },
  conversation_closed: { status: 409, meaning: "The visitor's conversation is closed.", openapi: false },
  payload_too_large: { status: 413, meaning: "The body is larger than the route's limit; it was not read." },
  unsupported_media_type: { status: 415, meaning: "The visitor endpoint takes JSON only.", openapi: false },
  rate_limited: { status: 429, meaning: "Too many requests in this window; wait Retry-After seconds." },
  internal_error: { status: 500, meaning: "An unexpected error; its cause is not disclosed." },
  unavailable: { status: 503, meaning: "The database cannot be reached; nothing was changed." },
} as const satisfies Record<string, { status: number; meaning: string; openapi?: false }>;

export type ApiErrorCode = keyof typeof CODES;

export const API_ERROR_CODE_NAMES = Object.keys(CODES) as ApiErrorCode[];

export const API_ERROR_CODES: Readonly<Record<ApiErrorCode, CodeSpec>> = Object.fromEntries(
  API_ERROR_CODE_NAMES.map((code) => [code, { openapi: true, ...CODES[code] }]),
) as Record<ApiErrorCode, CodeSpec>;

/** The status a code is always sent with. */
export function statusOf(code: ApiErrorCode): number {
  return CODES[code].status;
}
