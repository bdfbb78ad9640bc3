import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { errorResponse, type ErrorDetail } from "@/lib/platform/http/api-error";
import type { ApiErrorCode } from "@/lib/platform/http/error-codes";
import { recordWebhookOutcome } from "@/lib/platform/observability/metrics";

/*
 * The webhook's answers (docs/webhook.md, "Check order"). Messages are written for the integrator and never carry
 * internal error text. Each answer is counted by its outcome (webhook_outcomes_total, docs/operations.md).
 */

export type RejectionCode = Extract<
  ApiErrorCode,
  | "source_not_found"
  | "source_inactive"
  | "payload_too_large"
  | "invalid_timestamp"
  | "invalid_signature"
  | "invalid_json"
  | "invalid_payload"
  | "event_not_found"
>;

export const REJECTIONS: Record<RejectionCode, { status: number; message: string }> = {
  source_not_found: { status: 404, message: "No webhook source has this id. Check the endpoint URL." },
  source_inactive: {
    status: 403,
    message: "This webhook source is inactive. Activate it in the dashboard (Events → Webhook).",
  },
  payload_too_large: { status: 413, message: "The body is larger than 256 KiB." },
  invalid_timestamp: {
    status: 400,
    message:
      "X-Service-Timestamp must be the current Unix time in seconds (1-12 digits, " +
      "within 300 seconds of the server's clock).",
  },
  invalid_signature: {
    status: 401,
    message:
      'X-Service-Signature is missing or does not match. Send "sha256=" + the lowercase hex HMAC-SHA256 of ' +
      'timestamp + "." + the raw body, keyed with the signing secret.',
  },
  invalid_json: { status: 400, message: "The body is not valid JSON." },
  invalid_payload: { status: 400, message: "The body is not a valid event action; see details." },
  event_not_found: { status: 404, message: "No event matches this title, starts_at and location." },
};

export function rejection(code: RejectionCode, options: { message?: string; details?: ErrorDetail[] } = {}): Response {
  const { status, message } = REJECTIONS[code];
  recordWebhookOutcome(code);
  return errorResponse(status, code, options.message ?? message, { details: options.details });
}

export type RateState = { limit: number; points: number; resetMs: number };

function rateHeaders(rate: RateState): Record<string, string> {
  return {
    "RateLimit-Limit": String(rate.limit),
    "RateLimit-Remaining": String(Math.max(0, rate.limit - rate.points)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(rate.resetMs / 1000))),
  };
}

export function rateLimited(rate: RateState): Response {
  const retryAfter = Math.max(1, Math.ceil(rate.resetMs / 1000));
  recordWebhookOutcome("rate_limited");
  return errorResponse(
    429,
    "rate_limited",
    `Too many requests for this source. Retry after ${retryAfter} seconds, with exponential backoff.`,
    {
      headers: { ...rateHeaders(rate), "Retry-After": String(retryAfter) },
    },
  );
}

export function planLimitReached(plan: PlanName): Response {
  const limit = PLANS[plan].maxEvents.toLocaleString("en-US");
  recordWebhookOutcome("plan_limit_reached");
  return errorResponse(
    403,
    "plan_limit_reached",
    `This account has reached its plan's limit of ${limit} events; the event was not created.`,
  );
}

// Successes are built with a plain header object: it is the hot path, and the shape is jsonResponse's.
function success(body: unknown, rate: RateState | null): Response {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
  };
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: rate ? Object.assign(headers, rateHeaders(rate)) : headers,
  });
}

type AcceptedEvent = {
  id: string;
  status: string;
  created: boolean;
  occurrence?: { starts_at: string; status: string };
};

/** `occurrence`: the later occurrence of a series a cancel or delete acted on (the series is `id`). */
export function accepted(action: string, event: AcceptedEvent, rate: RateState | null): Response {
  recordWebhookOutcome("accepted");
  return success({ ok: true, action, event }, rate);
}

export function duplicate(rate: RateState | null): Response {
  recordWebhookOutcome("duplicate");
  return success({ ok: true, duplicate: true }, rate);
}

export function internalError(): Response {
  recordWebhookOutcome("internal_error");
  return errorResponse(500, "internal_error", "Something went wrong on our side. Retry later.");
}
