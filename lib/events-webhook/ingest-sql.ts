import {
  accountLockCte,
  accountRoomCte,
  identityMatch,
  upsertEventSql,
  upsertNotifications,
  type EventFields,
  type EventParams,
} from "@/lib/events/sql";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { placeholders, statement } from "@/lib/platform/db/sql";
import { TIMESTAMP_TOLERANCE_SECONDS } from "./signature";

/*
 * The webhook's hot path is ONE statement (one round trip, one transaction) that does, in this order:
 *   source still current → duplicate check → rate-limit increment → the event change → replay record →
 *   delivery log and its hourly counter.
 * The handler verifies the signature with a cached copy of the source; the statement then checks, in
 * the same snapshot as the change, that the source is still active and its secret ciphertext is still
 * the one that was used. If not (rotated, deactivated, deleted), nothing happens and the outcome is
 * "stale": the handler reloads the source and checks again. So a rotated-away secret fails on the very
 * next request on every instance, without a separate lookup per request. The event change, its replay
 * record, its outbound notification (event.created/updated/cancelled/deleted, lib/outbound/sql.ts) and its
 * log entry commit together or not at all: a 200 always means committed.
 *
 * Plan limit: an upsert that would create an event, and a delete, first lock the account row
 * (accountRoomCte / accountLockCte in lib/events/sql.ts), so the limit is exact under concurrency; an
 * update of an existing event takes no account lock and is allowed at the limit.
 *
 * Rate limit: a fixed one-minute window per source in rate_limits (rate-limiter-flexible's layout and
 * arithmetic), on the database clock so every instance agrees. Duplicates (check 6 of docs/webhook.md) are answered
 * before the rate limit (check 7) and do not count against it.
 *
 * The replay record is written only for an accepted change, so a refused request (404, 403) can be
 * retried byte for byte once the cause is fixed. Two identical requests racing each other both apply the
 * same change (harmless: the same full replacement) and meet on the replay primary key; the loser
 * answers {"duplicate": true}.
 *
 * 429s, replays and refusals before the signature are logged at most once per source per second
 * through one-second "gate" rows in rate_limits: a flood must not grow the delivery log without bound.
 * No server-only marker: the benchmark's reference server runs exactly these statements.
 */

export const RATE_WINDOW_MS = 60_000;

/**
 * The parameters of the action statements, by name (lib/platform/db/sql.ts): each statement's text is
 * numbered once, here, so a prepared statement keeps one text; the handler passes a record per request.
 * Cancel, delete and the occurrence statements take title, starts_at and location of the event fields.
 */
export type ActionParams = Pick<EventParams, "account" | "title" | "starts_at" | "location"> &
  Partial<EventFields> & {
    source: string;
    /** The signature (hex) of the request. */
    signature: string;
    /** The request's signed timestamp (X-Service-Timestamp) as an ISO instant: the replay record's day. */
    signed_at: string;
    /** The secret ciphertext the signature was checked with. */
    secret: string;
    /** Plan event limits as JSON ({"free":1000,…}). */
    planLimits: string;
    action: string;
    /** Milliseconds spent before the statement. */
    elapsed: number;
    /** Body excerpt, body bytes and logged headers (JSON) for the delivery log. */
    body: string;
    bodyBytes: number;
    headers: string;
    /** Occurrence statements only: the series' id. */
    series?: string;
    /**
     * Upsert only: the handler found that the instant is no occurrence of a same-titled series at the same
     * location, so the upsert may write a new event without holding for that check (UPSERT_SQL's `hold`).
     */
    seriesChecked?: boolean;
  };
/** A request refused after the signature: its body is not a valid action (INVALID_SQL). */
export type InvalidParams = Pick<ActionParams, "source" | "account" | "elapsed" | "body" | "bodyBytes" | "headers"> & {
  rateLimit: number;
  code: string;
  action: string | null;
  title: string | null;
};
/** A request refused before the signature (REJECTED_SQL). */
export type RejectedParams = Pick<ActionParams, "source" | "account" | "elapsed" | "body" | "bodyBytes" | "headers"> & {
  status: number;
  code: string;
};

export const ingestParams = placeholders<ActionParams & InvalidParams & RejectedParams>();
const p = ingestParams;

/**
 * The notification data of an occurrence action (RETURNING list over the series row `alias`): the series
 * as every event notification carries it, plus which occurrence (the request's starts_at) and what
 * it now is (`status`: 'cancelled', 'deleted' or 'upcoming' for a restored one). docs/outbound-webhooks.md.
 */
export const occurrenceData = (alias: string, status: string, change: "p_removed" | "p_restored") =>
  `outbound_event_data(${alias}, ${change} => ${p.starts_at}::timestamptz) || jsonb_build_object('occurrence',
    jsonb_build_object('starts_at', outbound_iso_time(${p.starts_at}::timestamptz), 'status', ${status}::text))
    AS data`;

/**
 * The source of a webhook URL, by its public id alone (an index, unique per account only): at most two
 * rows, and the handler takes two as none, so an id that somehow exists twice never reaches either.
 */
export const FIND_SOURCE_SQL = `SELECT s.id, s.account_id, s.active, s.secret_ciphertext, s.rate_limit_per_minute,
  a.plan::text AS plan
  FROM webhook_sources s JOIN accounts a ON a.id = s.account_id WHERE s.public_id = $1::text LIMIT 2`;

const clock = "clock AS (SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint AS ms)";

const rateLimit = (source: string, from: string) => `rl AS (
    INSERT INTO rate_limits AS r (key, points, expire)
    SELECT 'webhook:' || ${source}::text, 1, clock.ms + ${RATE_WINDOW_MS} FROM ${from}
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN COALESCE(r.expire, 0) <= EXCLUDED.expire - ${RATE_WINDOW_MS} THEN 1 ELSE r.points + 1 END,
      expire = CASE WHEN COALESCE(r.expire, 0) <= EXCLUDED.expire - ${RATE_WINDOW_MS} THEN EXCLUDED.expire
        ELSE r.expire END
    RETURNING points, expire)`;

/*
 * A one-second "gate" row per source and kind in rate_limits: the INSERT returns a row only for the
 * first request of each second, so a flood of refusals writes at most one log row per source per
 * second. `from` is the FROM/WHERE tail that says whether this request is of that kind at all.
 */
const gate = (name: string, kind: string, source: string, from: string) => `${name} AS (
    INSERT INTO rate_limits AS g (key, points, expire)
    SELECT '${kind}:' || ${source}::text, 1, clock.ms + 1000 FROM ${from}
    ON CONFLICT (key) DO UPDATE SET points = 1, expire = EXCLUDED.expire
      WHERE COALESCE(g.expire, 0) <= EXCLUDED.expire - 1000
    RETURNING 1)`;
const RATE_LIMITED_GATE = (source: string) =>
  gate("gate", "webhook-429-log", source, "clock, outcome WHERE outcome.code = 'rate_limited'");
// Refusals that cost nothing to send: unsigned or stale requests, an inactive source, exact replays.
const REFUSAL_GATE_KIND = "webhook-refusal-log";

/*
 * The delivery log's hourly counter (webhook_delivery_hours, the Overview's figures): `logged` is the CTE that
 * inserted the log row and returned its received_at and error_code. Same statement, so the counters hold
 * exactly what the log holds; the hourly_delivery_counters migration says why the row lock costs no new wait.
 */
const countLogged = (account: string, source: string) =>
  `INSERT INTO webhook_delivery_hours AS h (account_id, hour, source_id, outcome, deliveries)
    SELECT ${account}::uuid, date_trunc('hour', logged.received_at, 'UTC'), ${source}::uuid,
      COALESCE(logged.error_code, 'ok'), 1
    FROM logged
    ON CONFLICT (account_id, hour, source_id, outcome) DO UPDATE SET deliveries = h.deliveries + 1`;
const countedCte = `counted AS (${countLogged(p.account, p.source)})`;

/*
 * Replay records are partitioned by the signed timestamp (the webhook_logs_daily_partitions migration): a
 * replay carries the same timestamp (the signature covers it), so the look-up and the insert's conflict meet
 * in one day's partition, even when the replay arrives after midnight. The look-up accepts any record within
 * the timestamp window of it: a record's signed_at is exact, or, for a record kept from before its day was
 * known, the time it was accepted, which lay within that window. Twins racing each other have the same
 * signed_at and meet on the primary key.
 */
const REPLAY_WINDOW = `interval '${TIMESTAMP_TOLERANCE_SECONDS} seconds'`;

const latency = (elapsed: string) =>
  `${elapsed}::int + (extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000)::int`;

const statusOf = `CASE outcome.code WHEN 'ok' THEN 200 WHEN 'duplicate' THEN 200 WHEN 'rate_limited' THEN 429
  WHEN 'plan_limit_reached' THEN 403 WHEN 'event_not_found' THEN 404 ELSE 400 END`;

/*
 * An action statement (parameters ActionParams) around `actionCtes`, the CTEs that apply the change and
 * define `ev`. `occurrence` is the delivery log's occurrence_at; `answerColumns` adds columns to the answer row.
 * `holdCtes`, read before the rate limit, may define `hold`: a row there stops the statement before it
 * counts or writes anything (outcome "hold", like "stale" not logged), for a check the handler must make
 * first and then send the request again.
 */
export function actionStatement(
  actionCtes: string,
  failureCode: string,
  occurrence = "NULL",
  answerColumns = "",
  holdCtes = "hold AS (SELECT 1 WHERE false)",
) {
  return statement<ActionParams>(`WITH ${clock},
  src AS (
    SELECT s.rate_limit_per_minute AS rate_limit, a.plan::text AS plan,
      (${p.planLimits}::jsonb ->> a.plan::text)::int AS max_events
    FROM webhook_sources s JOIN accounts a ON a.id = s.account_id
    WHERE s.id = ${p.source}::uuid AND s.account_id = ${p.account}::uuid AND s.active
      AND s.secret_ciphertext = ${p.secret}::text),
  dup AS (
    SELECT EXISTS (SELECT 1 FROM webhook_replays WHERE account_id = ${p.account}::uuid
      AND source_id = ${p.source}::uuid AND signature = ${p.signature}::text
      AND signed_at BETWEEN ${p.signed_at}::timestamptz - ${REPLAY_WINDOW}
        AND ${p.signed_at}::timestamptz + ${REPLAY_WINDOW}) AS hit
    FROM src),
  ${holdCtes},
  ${rateLimit(p.source, "clock, dup WHERE NOT dup.hit AND NOT EXISTS (SELECT 1 FROM hold)")},
  allowed AS (SELECT 1 FROM rl, src WHERE rl.points <= src.rate_limit),
  ${actionCtes},
  replay AS (
    INSERT INTO webhook_replays (account_id, source_id, signature, signed_at)
    SELECT ${p.account}::uuid, ${p.source}::uuid, ${p.signature}::text, ${p.signed_at}::timestamptz
    FROM (SELECT 1 FROM ev LIMIT 1) accepted
    ON CONFLICT DO NOTHING RETURNING 1),
  outcome AS (SELECT CASE
      WHEN NOT EXISTS (SELECT 1 FROM src) THEN 'stale'
      WHEN (SELECT hit FROM dup) THEN 'duplicate'
      WHEN EXISTS (SELECT 1 FROM hold) THEN 'hold'
      WHEN NOT EXISTS (SELECT 1 FROM allowed) THEN 'rate_limited'
      WHEN NOT EXISTS (SELECT 1 FROM ev) THEN '${failureCode}'
      WHEN NOT EXISTS (SELECT 1 FROM replay) THEN 'duplicate'
      ELSE 'ok' END AS code),
  ${RATE_LIMITED_GATE(p.source)},
  ${gate("replay_gate", REFUSAL_GATE_KIND, p.source, "clock, outcome WHERE outcome.code = 'duplicate'")},
  logged AS (
    INSERT INTO webhook_deliveries (account_id, source_id, action, status, event_title, occurrence_at, error_code,
      latency_ms, body, body_bytes, headers)
    SELECT ${p.account}::uuid, ${p.source}::uuid, ${p.action}::text, ${statusOf}, ${p.title}::text, ${occurrence},
           NULLIF(outcome.code, 'ok'), ${latency(p.elapsed)},
           ${p.body}::text, ${p.bodyBytes}::int, ${p.headers}::jsonb
    FROM outcome WHERE outcome.code NOT IN ('stale', 'hold')
      AND (outcome.code NOT IN ('rate_limited', 'duplicate')
        OR EXISTS (SELECT 1 FROM gate) OR EXISTS (SELECT 1 FROM replay_gate))
    RETURNING received_at, error_code),
  ${countedCte}
  SELECT outcome.code, ev.id, ev.status, ev.created, rl.points, rl.expire - clock.ms AS reset_ms,
    src.rate_limit, src.plan${answerColumns}
  FROM outcome CROSS JOIN clock LEFT JOIN src ON true LEFT JOIN ev ON true LEFT JOIN rl ON true`);
}

// An event that exists (in this statement's snapshot) is an update, allowed at the plan's limit and
// without the account lock; a new one needs room, checked under the lock (accountRoomCte). An upsert
// that names no event exactly may name an occurrence of a recurring series with the same title and
// location (docs/recurring-events.md):
// - an occurrence removed from the series (an exception at that instant) is restored in this statement,
//   one more index probe, so the hot path stays one statement; not by an upsert whose status is
//   cancelled, which leaves it removed;
// - otherwise, when such a series started earlier (`hold`, events_series_title_idx: one probe that
//   usually finds nothing), the statement holds (outcome "hold", nothing counted or written): only
//   lib/events/occurrences.ts can say whether the instant is an occurrence, so the handler asks it, then
//   acts on the occurrence (occurrence-sql.ts) or sends the upsert again with seriesChecked, and the new
//   event is written. A one-off event is never created beside the series occurrence it duplicates.
// A twin request that restored the same occurrence after this statement's snapshot leaves `unexcepted`
// empty (its DELETE finds the row gone); the occurrence is restored all the same, so `already` answers
// with the series, without a second notification, instead of falling through to plan_limit_reached.
// Events are reached only by id from those one-row CTEs (never joined to them, and with no account_id
// condition: restorable checked it): a generic plan made while the account had no events otherwise
// scans all of them on every upsert (it halved bench:webhook).
export const UPSERT_SQL = actionStatement(
  `${accountRoomCte(
    "room",
    p.account,
    "(SELECT max_events FROM src)",
    "EXISTS (SELECT 1 FROM allowed) AND NOT EXISTS (SELECT 1 FROM known) " +
      "AND NOT EXISTS (SELECT 1 FROM restorable)",
  )},
  upserted AS (${upsertEventSql("FROM allowed WHERE EXISTS (SELECT 1 FROM known) OR EXISTS (SELECT 1 FROM room)")}),
  unexcepted AS (
    DELETE FROM event_exceptions x USING restorable r
    WHERE x.account_id = ${p.account}::uuid AND x.occurs_at = ${p.starts_at}::timestamptz AND x.event_id = r.event_id
      AND EXISTS (SELECT 1 FROM allowed)
    RETURNING x.event_id),
  restored AS (
    UPDATE events s SET updated_at = now()
    WHERE s.account_id = ${p.account}::uuid AND s.id = (SELECT event_id FROM unexcepted LIMIT 1)
    RETURNING s.id, s.status::text AS status, false AS created, ${occurrenceData("s", "'upcoming'", "p_restored")}),
  changed AS (SELECT id, status, created, data FROM upserted UNION ALL SELECT id, status, created, data FROM restored),
  already AS (
    SELECT s.id, s.status::text AS status, false AS created FROM events s
    WHERE s.account_id = ${p.account}::uuid AND s.id = (SELECT event_id FROM restorable)
      AND EXISTS (SELECT 1 FROM allowed)
      AND NOT EXISTS (SELECT 1 FROM unexcepted)),
  ev AS (SELECT id, status, created FROM changed UNION ALL SELECT id, status, created FROM already),
  ${emitMessagesCte("notified", upsertNotifications("changed"))}`,
  "plan_limit_reached",
  `CASE WHEN EXISTS (SELECT 1 FROM restorable) THEN ${p.starts_at}::timestamptz END`,
  ", EXISTS (SELECT 1 FROM restorable) AS restored_occurrence",
  `known AS (SELECT 1 FROM events WHERE ${identityMatch()}),
  restorable AS (
    SELECT x.event_id FROM event_exceptions x
    WHERE x.account_id = ${p.account}::uuid AND x.occurs_at = ${p.starts_at}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM known) AND ${p.status}::text <> 'cancelled'
      AND (SELECT (s.account_id, s.title, s.location) FROM events s WHERE s.id = x.event_id)
        = (${p.account}::uuid, ${p.title}::text, ${p.location}::text)
    LIMIT 1),
  hold AS (
    SELECT 1 FROM events s
    WHERE s.account_id = ${p.account}::uuid AND s.title = ${p.title}::text AND s.location = ${p.location}::text
      AND s.recurring <> '' AND s.starts_at < ${p.starts_at}::timestamptz
      AND NOT ${p.seriesChecked}::boolean AND NOT EXISTS (SELECT 1 FROM known)
      AND NOT EXISTS (SELECT 1 FROM restorable)
    LIMIT 1)`,
);

// Cancelling a cancelled event is a success that changes nothing visible (updated_at is kept) and
// notifies nobody; `prior` is the status before this statement.
export const CANCEL_SQL = actionStatement(
  `prior AS (SELECT id, status FROM events WHERE ${identityMatch()}),
  ev AS (
    UPDATE events SET status = 'cancelled', updated_at = CASE WHEN status = 'cancelled' THEN updated_at ELSE now() END
    WHERE ${identityMatch()} AND EXISTS (SELECT 1 FROM allowed)
    RETURNING id, status::text AS status, false AS created, ${eventData("events")}),
  ${emitMessagesCte(
    "notified",
    `SELECT ${p.account}::uuid AS account_id, 'event.cancelled' AS type, ev.data
     FROM ev JOIN prior ON prior.id = ev.id WHERE prior.status <> 'cancelled'`,
  )}`,
  "event_not_found",
);

// A twin request that deleted the event a moment earlier leaves nothing to delete; the event this
// request saw still counts as deleted (and the replay key then marks it as the duplicate it is).
export const DELETE_SQL = actionStatement(
  `existing AS (SELECT id FROM events WHERE ${identityMatch()}),
  ${accountLockCte("locked", p.account, "EXISTS (SELECT 1 FROM allowed) AND EXISTS (SELECT 1 FROM existing)")},
  removed AS (DELETE FROM events WHERE ${identityMatch()} AND EXISTS (SELECT 1 FROM locked)
    RETURNING id, ${eventData("events")}),
  ${emitMessagesCte(
    "notified",
    `SELECT ${p.account}::uuid AS account_id, 'event.deleted' AS type, removed.data
    FROM removed`,
  )},
  ev AS (
    SELECT id, 'deleted'::text AS status, false AS created FROM removed
    UNION ALL
    SELECT id, 'deleted'::text, false FROM existing
    WHERE EXISTS (SELECT 1 FROM allowed) AND NOT EXISTS (SELECT 1 FROM removed))`,
  "event_not_found",
);

/*
 * A verified request whose body is not a valid action (docs/webhook.md, check 8) still counts against the rate limit,
 * which comes first (check 7). Run with a freshly loaded source. Parameters: InvalidParams.
 */
export const INVALID_SQL = statement<InvalidParams>(`WITH ${clock},
  ${rateLimit(p.source, "clock")},
  outcome AS (SELECT CASE WHEN rl.points > ${p.rateLimit}::int THEN 'rate_limited' ELSE ${p.code}::text
    END AS code FROM rl),
  ${RATE_LIMITED_GATE(p.source)},
  logged AS (
    INSERT INTO webhook_deliveries (account_id, source_id, action, status, event_title, error_code, latency_ms, body,
      body_bytes, headers)
    SELECT ${p.account}::uuid, ${p.source}::uuid, ${p.action}::text, ${statusOf}, ${p.title}::text, outcome.code,
           ${latency(p.elapsed)}, ${p.body}::text, ${p.bodyBytes}::int, ${p.headers}::jsonb
    FROM outcome WHERE outcome.code <> 'rate_limited' OR EXISTS (SELECT 1 FROM gate)
    RETURNING received_at, error_code),
  ${countedCte}
  SELECT outcome.code, rl.points, rl.expire - clock.ms AS reset_ms FROM outcome CROSS JOIN rl CROSS JOIN clock`);

/**
 * Requests refused before the signature is verified (checks 2-5): logged at most once per source per
 * second (anyone who knows the URL can send them), nothing else. Their body is kept for debugging but
 * not parsed. Parameters: RejectedParams.
 */
export const REJECTED_SQL = statement<RejectedParams>(`WITH ${clock},
  ${gate("refusal_gate", REFUSAL_GATE_KIND, p.source, "clock")},
  logged AS (
    INSERT INTO webhook_deliveries (account_id, source_id, status, error_code, latency_ms, body, body_bytes, headers)
    SELECT ${p.account}::uuid, ${p.source}::uuid, ${p.status}::int, ${p.code}::text, ${latency(p.elapsed)},
           ${p.body}::text, ${p.bodyBytes}::int, ${p.headers}::jsonb
    FROM refusal_gate
    RETURNING received_at, error_code)
  ${countLogged(p.account, p.source)}`);
