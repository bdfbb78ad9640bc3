import "server-only";
import type pg from "pg";
import { decryptSecret } from "@/lib/platform/crypto/secrets";
import { recordDeliveryAttempt, recordDeliveryLag } from "@/lib/platform/observability/metrics";
import { inSpan, traceHeaders, tracingActive } from "@/lib/platform/observability/tracing";
import { disableSubscription } from "@/lib/webhook-subscriptions/store";
import { post, type PostResult } from "./post";
import type { AttemptOutcome, Recorder } from "./record";
import {
  FAILING_DISABLE_MS,
  MAX_ATTEMPTS,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  retryDelay,
  scaledDelay,
} from "./schedule";
import { signatureHeader } from "./signing";

/*
 * One attempt of a delivery the worker claimed from the queue (queue.ts): it POSTs the payload signed as
 * Standard Webhooks, decides what comes next, and records both (record.ts): success; a retry, which parks
 * the delivery behind its subscription's circuit, paused on the schedule (schedule.ts) or as Retry-After
 * asks; failed for good after the last attempt; or the subscription disabled (410 Gone, or failing for 5
 * days, with an audit entry) (docs/outbound-webhooks.md, "Answers, retries and disabling").
 */

export const USER_AGENT = "Integrations-Webhooks/1.0 (+https://www.standardwebhooks.com)";

export type Loaded = {
  delivery_id: string;
  /** With the id, the delivery's key (its day partition). */
  delivery_created_at: Date;
  delivery_status: string;
  attempts: number;
  message_id: string;
  body: string;
  subscription_id: string;
  account_id: string;
  url: string;
  subscription_status: string;
  secret_ciphertext: string;
  /** The secret before a rotation, while it is still signed with (24 hours); null otherwise. */
  previous_secret_ciphertext: string | null;
  /** When the attempt was due, in epoch milliseconds (the delivery lag metric). */
  due_ms: number;
  /** Failed probes in a row of the subscription's open circuit; 0 when it is closed. */
  circuit_failures: number;
  /** Whether this attempt is its circuit's probe. */
  probe: boolean;
};

export type DeliveryOutcome = AttemptOutcome | "skipped";

export type DeliverOptions = {
  pool: pg.Pool;
  record: Recorder;
  /** The deadline of an attempt; by default OUTBOUND_TIMEOUT_MS as it is at each attempt (post.ts). */
  timeoutMs?: number;
  now?: () => number;
  random?: () => number;
};

export const GONE_REASON =
  "The receiver answered 410 Gone, which means it no longer wants these notifications. " +
  "Re-enable the subscription once the receiver accepts them again.";
export const FAILING_REASON =
  "Every delivery failed for 5 days. Check that the URL answers with a 2xx status, " +
  "then re-enable the subscription; failed notifications can be resent or replayed.";

/**
 * An attempt whose answer is in; `recorded` settles once it is recorded, with what it led to; `pauseMs` is
 * how long a failure paused the subscription's circuit (null otherwise).
 */
export type Attempted = { recorded: Promise<DeliveryOutcome>; pauseMs: number | null };

/**
 * One attempt of a claimed delivery. Resolves when the receiver has answered: the worker can go on to its
 * next delivery while the attempt is being recorded. "skipped" when there was nothing to attempt: the
 * caller then takes the delivery off the queue.
 */
export async function attemptDelivery(
  deliveryId: string,
  row: Loaded | null,
  options: DeliverOptions,
): Promise<Attempted> {
  // Deleted (with its subscription or by retention), already done, or its subscription disabled.
  if (!row || row.delivery_status !== "pending") return { recorded: Promise.resolve("skipped"), pauseMs: null };
  if (row.subscription_status !== "active") {
    await options.pool.query(
      "UPDATE outbound_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = now() " +
        "WHERE id = $1::uuid AND created_at = $2::timestamptz AND account_id = $3::uuid AND status = 'pending'",
      [deliveryId, row.delivery_created_at, row.account_id],
    );
    return { recorded: Promise.resolve("skipped"), pauseMs: null };
  }
  const attempt = row.attempts + 1;
  recordDeliveryLag(row.attempts === 0 ? "first" : "retry", ((options.now?.() ?? Date.now()) - row.due_ms) / 1000);
  if (!tracingActive()) {
    const result = await post(row.url, headersFor(row), row.body, options.timeoutMs);
    const decided = decide(result, row, attempt, options);
    return { recorded: record(deliveryId, row, attempt, result, decided, options), pauseMs: decided.pause };
  }
  // A span per attempt, its POST a child that hands the trace to the receiver (traceparent).
  return inSpan("outbound.deliver", { kind: "consumer", attributes: { "outbound.attempt": attempt } }, async () => {
    const result = await inSpan("outbound.post", { kind: "client" }, async (span) => {
      const answered = await post(row.url, { ...headersFor(row), ...traceHeaders() }, row.body, options.timeoutMs);
      if (answered.statusCode !== null) span?.setAttribute("http.response.status_code", answered.statusCode);
      return answered;
    });
    const decided = decide(result, row, attempt, options);
    return {
      recorded: inSpan("outbound.record", {}, () => record(deliveryId, row, attempt, result, decided, options)),
      pauseMs: decided.pause,
    };
  });
}

async function record(
  deliveryId: string,
  row: Loaded,
  attempt: number,
  result: PostResult,
  { outcome, pause }: Decision,
  options: DeliverOptions,
): Promise<DeliveryOutcome> {
  const summary = errorSummary(result);
  const failingSince = await options.record({
    deliveryId,
    deliveryCreatedAt: row.delivery_created_at,
    attempt,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    excerpt: result.excerpt,
    error: outcome === "succeeded" ? null : summary,
    outcome,
    delayMs: outcome === "retry" ? pause : null,
    pauseMs: pause,
    accountId: row.account_id,
    subscriptionId: row.subscription_id,
    summary,
  });
  if (outcome === "disabled") {
    recordDeliveryAttempt(outcome);
    await disableSubscription(row.account_id, row.subscription_id, GONE_REASON);
    return outcome;
  }
  if (
    outcome !== "succeeded" &&
    failingSince &&
    (options.now?.() ?? Date.now()) - failingSince.getTime() >= FAILING_DISABLE_MS
  ) {
    recordDeliveryAttempt("disabled");
    await disableSubscription(row.account_id, row.subscription_id, FAILING_REASON);
    return "disabled";
  }
  recordDeliveryAttempt(outcome);
  return outcome;
}

/**
 * The headers an attempt sent, as the dashboard shows them: the signature masked (it is derived from the
 * secret and the page is not the place for it), the timestamp as the second the attempt started (the
 * attempt is recorded after it ends, so this can be a second off).
 */
export function sentHeaders(messageId: string, startedAt: Date): Array<[string, string]> {
  return [
    ["content-type", "application/json"],
    ["user-agent", USER_AGENT],
    ["webhook-id", messageId],
    ["webhook-timestamp", String(Math.floor(startedAt.getTime() / 1000))],
    ["webhook-signature", "v1,•••••••• (masked)"],
  ];
}

function headersFor(row: Loaded): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = [decryptSecret(row.secret_ciphertext)];
  if (row.previous_secret_ciphertext) secrets.push(decryptSecret(row.previous_secret_ciphertext));
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": row.message_id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, row.message_id, timestamp, row.body),
  };
}

type Decision = { outcome: AttemptOutcome; pause: number | null };

/**
 * A 410 holds the circuit this long: the subscription is disabled just after the attempt is recorded, and the
 * circuit tick then fails its waiting deliveries; should disabling fail, the circuit is probed again then.
 */
const GONE_HOLD_MS = 60_000;

// Any failure pauses the subscription's circuit; a retry waits behind it.
function decide(result: PostResult, row: Loaded, attempt: number, options: DeliverOptions): Decision {
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300)
    return { outcome: "succeeded", pause: null };
  if (result.statusCode === 410) return { outcome: "disabled", pause: GONE_HOLD_MS };
  return { outcome: attempt < MAX_ATTEMPTS ? "retry" : "failed", pause: circuitPause(result, row, options) };
}

/**
 * How long the subscription's circuit stays paused after this failure: the schedule's next step after its
 * failures in a row (the last step once they run past it), or what a 429 or 503 asks with Retry-After.
 */
function circuitPause(result: PostResult, row: Loaded, options: DeliverOptions): number {
  const step = Math.min(row.circuit_failures + 1, RETRY_DELAYS_MS.length);
  const scheduled = retryDelay(step, options.random) ?? 0;
  const asked = result.statusCode === 429 || result.statusCode === 503 ? parseRetryAfter(result.retryAfter) : null;
  return scaledDelay(asked ?? scheduled);
}

/** The failure in words for the attempt log and the subscription's last error. */
function errorSummary(result: PostResult): string {
  if (result.error) return result.error;
  const code = result.statusCode ?? 0;
  if (code >= 200 && code < 300) return "";
  if (code >= 300 && code < 400)
    return `The receiver answered ${code} (a redirect); redirects are not followed. Use the final URL.`;
  if (code === 410) return "The receiver answered 410 Gone.";
  if (code === 429) return "The receiver answered 429 Too Many Requests.";
  return `The receiver answered ${code} instead of a 2xx status.`;
}
