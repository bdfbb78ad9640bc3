import "server-only";
import type pg from "pg";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { db, isDatabaseUnavailable } from "@/lib/platform/db/client";
import { eventFields } from "@/lib/events/sql";
import type { Statement } from "@/lib/platform/db/sql";
import { unavailableResponse } from "@/lib/platform/http/api-error";
import { readWebhookBody as readBody } from "./body";
import type { BodyRead } from "@/lib/platform/http/body";
import { bodyExcerpt, loggedHeaders, loggedTitle, type LoggedHeaders } from "./delivery-record";
import { isPublicId } from "@/lib/platform/ids";
import {
  CANCEL_SQL,
  DELETE_SQL,
  FIND_SOURCE_SQL,
  INVALID_SQL,
  REJECTED_SQL,
  UPSERT_SQL,
  type ActionParams,
  type InvalidParams,
} from "./ingest-sql";
import {
  FIND_SERIES_SQL,
  occurrencePlan,
  type ActionPlan,
  type FindSeriesParams,
  type SeriesCandidate,
} from "./occurrence-sql";
import { parsePayload, type ParsedPayload } from "./payload";
import {
  accepted,
  duplicate,
  internalError,
  planLimitReached,
  rateLimited,
  REJECTIONS,
  rejection,
  type RateState,
  type RejectionCode,
} from "./responses";
import { decryptSecret } from "@/lib/platform/crypto/secrets";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { recordWebhookOutcome } from "@/lib/platform/observability/metrics";
import { inSpan, tracingActive } from "@/lib/platform/observability/tracing";
import { isFreshTimestamp, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "./signature";

/*
 * POST /api/v1/events/webhook/<source_id>, checks in the order of docs/webhook.md ("Check order"); the first that
 * fails decides the answer. Nothing is parsed before the signature over the raw bytes is verified.
 *
 * Sources are cached per handler (per process) only to verify signatures without a lookup; every
 * accepted request is confirmed against the database in the same statement that applies it (see
 * ingest-sql.ts), and every refusal is decided on a freshly loaded source. A handler is bound to a pool,
 * so tests can run two "instances" on one database.
 */

export type WebhookHandlerOptions = {
  pool: pg.Pool;
  /** Server time in ms, for the timestamp window. */
  now?: () => number;
  /** Time after which a request still waiting for the database gets 503 (kept under 5 s). */
  deadlineMs?: number;
};

type SourceRow = {
  id: string;
  account_id: string;
  active: boolean;
  secret_ciphertext: string;
  rate_limit_per_minute: number;
  plan: PlanName;
};
type Source = SourceRow & { secret: string };
type Outcome = {
  code: string;
  id: string | null;
  status: string | null;
  created: boolean | null;
  points: number | null;
  /** Milliseconds until the rate-limit window resets (bigint, so a string). */
  reset_ms: string | null;
  rate_limit: number | null;
  plan: PlanName | null;
  /** Occurrence actions only: what the occurrence is after the request ("cancelled" or "deleted"). */
  occurrence_status?: string | null;
  /** Upserts only: the upsert restored an occurrence removed from a series. */
  restored_occurrence?: boolean | null;
};

class DeadlineExceeded extends Error {}

const STATEMENTS = { upsert: UPSERT_SQL, cancel: CANCEL_SQL, delete: DELETE_SQL } as const;
const PLAN_LIMITS = JSON.stringify(
  Object.fromEntries(Object.entries(PLANS).map(([plan, limits]) => [plan, limits.maxEvents])),
);
const MAX_CACHED_SOURCES = 10_000;

// Connection loss, a stopped server, overload, lock timeouts: retryable, so 503 rather than 500.
const isRetryable = (error: unknown) =>
  error instanceof DeadlineExceeded ||
  isDatabaseUnavailable(error) ||
  /^(40|53|55|57|58|08)/.test(String((error as { code?: unknown })?.code ?? ""));

/** Checks 2-5 on a source: which refusal applies, if any. Pure; no I/O. */
function refusalFor(
  source: Source,
  body: BodyRead,
  timestamp: string | null,
  signature: string | null,
  nowMs: number,
  logged: LoggedHeaders,
): RejectionCode | null {
  logged.signature_valid = null;
  if (!source.active) return "source_inactive";
  if (!body.ok) return "payload_too_large";
  if (!isFreshTimestamp(timestamp, nowMs)) return "invalid_timestamp";
  logged.signature_valid = verifySignature(source.secret, timestamp, body.bytes, signature);
  return logged.signature_valid ? null : "invalid_signature";
}

function rateState(limit: number, outcome: Pick<Outcome, "points" | "reset_ms">): RateState {
  return { limit, points: outcome.points ?? 0, resetMs: Number(outcome.reset_ms ?? 0) };
}

export function createWebhookHandler(options: WebhookHandlerOptions) {
  const { pool } = options;
  const now = options.now ?? Date.now;
  const deadlineMs = options.deadlineMs ?? 4_500;
  const cache = new Map<string, Source>();

  return async function handle(request: Request, publicId: string): Promise<Response> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let timer: NodeJS.Timeout | undefined;
    // Bounds the wait for the database; a statement that outlives it may still commit, which a 503 allows.
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineExceeded()), deadlineMs);
    });
    expired.catch(() => {});
    const query = <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) =>
      Promise.race([pool.query<R>({ name, text, values }), expired]);
    const run = <R extends pg.QueryResultRow, T>(name: string, statement: Statement<T>, params: T) =>
      query<R>(name, statement.text, statement.values(params));

    const load = async (): Promise<Source | null> => {
      const { rows } = await query<SourceRow>("webhook-find-source", FIND_SOURCE_SQL, [publicId]);
      const row = rows.length === 1 ? rows[0] : undefined;
      if (!row) {
        cache.delete(publicId);
        return null;
      }
      const source = { ...row, secret: decryptSecret(row.secret_ciphertext) };
      if (cache.size >= MAX_CACHED_SOURCES) cache.clear();
      cache.set(publicId, source);
      return source;
    };

    try {
      if (!isPublicId(publicId, "source")) return rejection("source_not_found");
      const logged = loggedHeaders(request.headers);
      const timestamp = request.headers.get(TIMESTAMP_HEADER);
      const signature = request.headers.get(SIGNATURE_HEADER);
      let source = cache.get(publicId) ?? null;
      let fresh = false;
      let body: BodyRead | null = null;
      let payload: ParsedPayload | null = null;

      // A cached attempt, then fresh ones: every refusal, and every retry after the statement found the
      // cached copy stale, is decided on the source as it is in the database now.
      for (let attempt = 0; attempt < 3; attempt++) {
        if (!source || attempt > 0) {
          source = await load();
          fresh = true;
        }
        if (!source) return rejection("source_not_found");
        body ??= await readBody(request);
        const bodySize = body.ok ? body.bytes.byteLength : body.size;
        const excerpt = bodyExcerpt(body.bytes);

        const refusal = refusalFor(source, body, timestamp, signature, now(), logged);
        if (refusal && !fresh) continue;
        if (refusal) {
          await run("webhook-log-rejected", REJECTED_SQL, {
            source: source.id,
            account: source.account_id,
            status: REJECTIONS[refusal].status,
            code: refusal,
            elapsed: elapsed(),
            body: excerpt,
            bodyBytes: bodySize,
            headers: JSON.stringify(logged),
          }).catch(() => {});
          return rejection(refusal);
        }

        payload ??= parsePayload(body.bytes);
        if (!payload.ok) {
          if (!fresh) continue;
          const result = await run<Outcome, InvalidParams>("webhook-invalid", INVALID_SQL, {
            source: source.id,
            account: source.account_id,
            rateLimit: source.rate_limit_per_minute,
            code: payload.code,
            action: payload.action,
            title: loggedTitle(payload.title),
            elapsed: elapsed(),
            body: excerpt,
            bodyBytes: bodySize,
            headers: JSON.stringify(logged),
          });
          const outcome = result.rows[0];
          if (outcome.code === "rate_limited") return rateLimited(rateState(source.rate_limit_per_minute, outcome));
          return rejection(payload.code, { message: payload.message, details: payload.details });
        }

        const { title, startsAt, location } = payload.event;
        const identity = { account: source.account_id, title, starts_at: startsAt.toISOString(), location };
        const action = payload.action;
        const status = "status" in payload.event ? payload.event.status : "upcoming";
        // A request may name a later occurrence of a series (docs/recurring-events.md). A cancel or delete
        // looks for the series first, off the hot path (upserts); an upsert's statement holds when it may
        // name one, and the request is sent again once lib/events/occurrences.ts has said.
        const occurrenceOf = async () =>
          occurrencePlan(
            (await run<SeriesCandidate, FindSeriesParams>("webhook-find-series", FIND_SERIES_SQL, identity)).rows,
            action,
            startsAt,
            status,
          );
        let plan: ActionPlan = { name: `webhook-${action}`, statement: STATEMENTS[action] };
        if (action !== "upsert") plan = (await occurrenceOf()) ?? plan;
        const params: ActionParams = {
          ...(action === "upsert" ? eventFields(payload.event) : {}),
          ...identity,
          source: source.id,
          signature: signature!.slice("sha256=".length),
          // refusalFor checked it: 1-12 digits within the window of now.
          signed_at: new Date(Number(timestamp) * 1000).toISOString(),
          secret: source.secret_ciphertext,
          planLimits: PLAN_LIMITS,
          action,
          elapsed: elapsed(),
          body: excerpt,
          bodyBytes: bodySize,
          headers: JSON.stringify(logged),
          series: plan.series,
          seriesChecked: false,
        };
        let outcome = (await run<Outcome, ActionParams>(plan.name, plan.statement, params)).rows[0];
        if (outcome.code === "hold") {
          plan = (await occurrenceOf()) ?? plan;
          const again = { ...params, series: plan.series, seriesChecked: true, elapsed: elapsed() };
          outcome = (await run<Outcome, ActionParams>(plan.name, plan.statement, again)).rows[0];
        }
        if (outcome.code === "stale") continue;
        const rate = outcome.points === null ? null : rateState(outcome.rate_limit ?? 0, outcome);
        switch (outcome.code) {
          case "ok": {
            const restored = outcome.restored_occurrence
              ? { starts_at: identity.starts_at, status: "upcoming" }
              : undefined;
            const occurrence = plan.occurrence
              ? { ...plan.occurrence, status: outcome.occurrence_status ?? plan.occurrence.status }
              : restored;
            const event = { id: outcome.id!, status: outcome.status!, created: outcome.created === true, occurrence };
            return accepted(action, event, rate);
          }
          case "duplicate":
            return duplicate(rate);
          case "rate_limited":
            return rateLimited(rate!);
          case "plan_limit_reached":
            return planLimitReached(outcome.plan ?? source.plan);
          default:
            return rejection("event_not_found");
        }
      }
      // The source changed under three consecutive attempts: let the sender retry.
      recordWebhookOutcome("unavailable");
      return unavailableResponse();
    } catch (error) {
      if (isRetryable(error)) {
        recordWebhookOutcome("unavailable");
        return unavailableResponse();
      }
      // The name only: a database error's message can quote the payload's values.
      logger().error({ err: { name: errorFields(error).err.name } }, "events webhook: unexpected error");
      return internalError();
    } finally {
      clearTimeout(timer);
    }
  };
}

let defaultHandler: ReturnType<typeof createWebhookHandler> | null = null;

/** The route's entry point: the process-wide pool. */
export function handleWebhookRequest(request: Request, publicId: string): Promise<Response> {
  defaultHandler ??= createWebhookHandler({ pool: db.pool });
  if (!tracingActive()) return defaultHandler(request, publicId);
  const handler = defaultHandler;
  return inSpan("events_webhook.handle", {}, async (span) => {
    const response = await handler(request, publicId);
    span?.setAttribute("http.response.status_code", response.status);
    return response;
  });
}
