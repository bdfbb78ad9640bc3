import "server-only";
import type pg from "pg";
import { decryptSecret } from "@/lib/platform/crypto/secrets";
import { recordDeliveryAttempt, recordDeliveryLag } from "@/lib/platform/observability/metrics";
import { inSpan, traceHeaders, tracingActive } from "@/lib/platform/observability/tracing";
import { disableSubscription } from "@/lib/webhook-subscriptions/store";
import { post, type PostResult } from "./post";
import type { AttemptOutcome, Recorder } from "./record";
import { FAILING_DISABLE_MS, MAX_ATTEMPTS, parseRetryAfter, retryDelay } from "./schedule";
import { signatureHeader } from "./signing";

/*
 * The "deliver" task: attempts of the deliveries a job names (a notification to one subscription each).
 * An attempt loads the delivery with its message and subscription, POSTs the payload signed as Standard
 * Webhooks, decides what comes next, and records both (record.ts): success; a retry on the schedule
 * (schedule.ts) as a job of its own, keyed by the delivery, with run_at (not graphile-worker's own
 * backoff); failed for good after the last attempt; or the subscription disabled (410 Gone, or failing
 * for 5 days, with an audit entry). First attempts come in chunks from the fan-out relay (relay.ts);
 * every later run of a delivery (retry, resend, test) is keyed by the delivery, so it is queued once
 * however many workers run (docs/outbound-webhooks.md, "Delivery").
 */

export const DELIVER_TASK = "deliver";
export const jobKey = (deliveryId: string) => `outbound-delivery:${deliveryId}`;
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
};

/*
 * When an attempt was due: a first attempt since its message was written (the relay creates the delivery
 * with next_attempt_at = created_at, so the relay's own lag counts), a retry, resend or test at its
 * next_attempt_at.
 */
const DUE_MS = `(extract(epoch FROM CASE WHEN d.next_attempt_at = d.created_at THEN m.created_at
      ELSE COALESCE(d.next_attempt_at, d.created_at) END) * 1000)::float8 AS due_ms`;

/**
 * A delivery with its message and subscription, for a FROM clause naming them d, m and s. The previous
 * secret's expiry is judged here, on the database's clock, so no row carries a date to parse.
 */
export const LOAD_COLUMNS = `d.id AS delivery_id, d.created_at AS delivery_created_at, d.status::text AS delivery_status,
    d.attempts, m.id AS message_id, m.payload::text AS body,
    s.id AS subscription_id, s.account_id, s.url, s.status::text AS subscription_status, s.secret_ciphertext,
    CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_ciphertext END AS previous_secret_ciphertext,
    ${DUE_MS}`;

const LOAD_SQL = `SELECT ${LOAD_COLUMNS}
  FROM outbound_deliveries d JOIN outbound_messages m ON m.id = d.message_id AND m.created_at = d.created_at
    AND m.account_id = d.account_id JOIN webhook_subscriptions s ON s.id = d.subscription_id
  WHERE d.id = ANY ($1::uuid[])`;

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

/** An attempt whose answer is in; `recorded` settles once it is recorded, with what it led to. */
export type Attempted = { recorded: Promise<DeliveryOutcome> };

/**
 * What a queue job asks for: one delivery (a retry, a resend, a test) or, from the fan-out relay, a chunk
 * of first attempts. Null for a payload that is neither, which graphile-worker then fails on its own.
 */
export type JobPayload = { ids: string[]; firstAttempts: boolean };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseJobPayload(payload: unknown): JobPayload | null {
  const { delivery_id: one, delivery_ids: many } = (payload ?? {}) as { delivery_id?: unknown; delivery_ids?: unknown };
  if (typeof one === "string" && UUID.test(one)) return { ids: [one], firstAttempts: false };
  if (Array.isArray(many))
    return { ids: many.filter((id): id is string => typeof id === "string" && UUID.test(id)), firstAttempts: true };
  return null;
}

/** Loads the deliveries of a job graphile-worker handed out; one entry per id, null for one that is gone. */
export async function loadDeliveries(pool: pg.Pool, ids: string[]): Promise<Array<Loaded | null>> {
  // Named: prepared once per connection.
  const { rows } = await pool.query<Loaded>({ name: "outbound-load", text: LOAD_SQL, values: [ids] });
  const byId = new Map(rows.map((row) => [row.delivery_id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * One attempt of a loaded delivery. Resolves when the receiver has answered: the worker can go on to its
 * next delivery while the attempt is being recorded. Under a chunk of first attempts (`firstAttempts`), a
 * delivery that was already attempted is left alone: its retry is a job of its own (record.ts), and the
 * chunk runs again only when a worker died before finishing it.
 */
export async function attemptDelivery(
  deliveryId: string,
  row: Loaded | null,
  options: DeliverOptions,
  firstAttempts = false,
): Promise<Attempted> {
  // Deleted (with its subscription or by the 30-day sweep), already done, or its subscription disabled.
  if (!row || row.delivery_status !== "pending" || (firstAttempts && row.attempts > 0))
    return { recorded: Promise.resolve("skipped") };
  if (row.subscription_status !== "active") {
    await options.pool.query(
      "UPDATE outbound_deliveries SET status = 'failed', next_attempt_at = NULL, " +
        "updated_at = now() WHERE id = $1::uuid AND status = 'pending'",
      [deliveryId],
    );
    return { recorded: Promise.resolve("skipped") };
  }
  const attempt = row.attempts + 1;
  recordDeliveryLag(row.attempts === 0 ? "first" : "retry", ((options.now?.() ?? Date.now()) - row.due_ms) / 1000);
  if (!tracingActive()) {
    const result = await post(row.url, headersFor(row), row.body, options.timeoutMs);
    return { recorded: record(deliveryId, row, attempt, result, options) };
  }
  // A span per attempt, its POST a child that hands the trace to the receiver (traceparent).
  return inSpan("outbound.deliver", { kind: "consumer", attributes: { "outbound.attempt": attempt } }, async () => {
    const result = await inSpan("outbound.post", { kind: "client" }, async (span) => {
      const answered = await post(row.url, { ...headersFor(row), ...traceHeaders() }, row.body, options.timeoutMs);
      if (answered.statusCode !== null) span?.setAttribute("http.response.status_code", answered.statusCode);
      return answered;
    });
    return { recorded: inSpan("outbound.record", {}, () => record(deliveryId, row, attempt, result, options)) };
  });
}

async function record(
  deliveryId: string,
  row: Loaded,
  attempt: number,
  result: PostResult,
  options: DeliverOptions,
): Promise<DeliveryOutcome> {
  const outcome = decide(result, attempt);
  const delay = outcome === "retry" ? nextDelay(result, attempt, options.random) : null;
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
    delayMs: delay,
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

function decide(result: PostResult, attempt: number): AttemptOutcome {
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return "succeeded";
  if (result.statusCode === 410) return "disabled";
  return attempt < MAX_ATTEMPTS ? "retry" : "failed";
}

function nextDelay(result: PostResult, attempt: number, random?: () => number): number {
  const scheduled = retryDelay(attempt, random) ?? 0;
  if (result.statusCode === 429 || result.statusCode === 503) return parseRetryAfter(result.retryAfter) ?? scheduled;
  return scheduled;
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
