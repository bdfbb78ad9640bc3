/*
 * The Overview's statements (docs/overview.md). Every one is scoped by account ($1) and reads the hourly
 * counters (webhook_delivery_hours, outbound_attempt_hours), single rows by index (a source's latest
 * log entry, looked for only in the days the log keeps, so an idle source's probe skips older days), or
 * the account's few sources, feeds, subscriptions and keys: none scans a log.
 * Hours are UTC instants passed in by the caller ($2 = the first hour of the last 24, or of the last 7 days
 * in HOURS_SQL; $3 = the hour before the current one), so the statements agree with each other.
 */

import { DELIVERY_RETENTION_DAYS } from "@/lib/events-webhook/deliveries";

const ACCEPTED = "('ok', 'duplicate')";
const deliveriesWhere = (condition: string) => `COALESCE(sum(h.deliveries) FILTER (WHERE ${condition}), 0)`;

/*
 * A source answers "only errors for an hour" when the whole previous clock hour had refusals and no
 * accepted request, and the current hour has none accepted either: its last accepted request is then
 * over an hour old and every request since was refused.
 */
export const SOURCES_SQL = `SELECT s.id, s.public_id, s.name, s.active,
    l.received_at AS last_delivery_at, l.status AS last_status, l.error_code AS last_error_code,
    COALESCE(c.total, 0)::int AS deliveries, COALESCE(c.refused, 0)::int AS refused,
    COALESCE(c.previous_refused > 0 AND c.previous_accepted = 0 AND c.current_accepted = 0, false) AS failing
  FROM webhook_sources s
  LEFT JOIN LATERAL (
    SELECT d.received_at, d.status, d.error_code FROM webhook_deliveries d
    WHERE d.source_id = s.id AND d.account_id = s.account_id
      AND d.received_at > now() - interval '${DELIVERY_RETENTION_DAYS} days'
    ORDER BY d.received_at DESC, d.id DESC LIMIT 1) l ON true
  LEFT JOIN LATERAL (
    SELECT sum(h.deliveries) AS total,
      sum(h.deliveries) FILTER (WHERE h.outcome NOT IN ${ACCEPTED}) AS refused,
      ${deliveriesWhere(`h.hour = $3::timestamptz AND h.outcome NOT IN ${ACCEPTED}`)} AS previous_refused,
      ${deliveriesWhere(`h.hour = $3::timestamptz AND h.outcome IN ${ACCEPTED}`)} AS previous_accepted,
      ${deliveriesWhere(`h.hour > $3::timestamptz AND h.outcome IN ${ACCEPTED}`)} AS current_accepted
    FROM webhook_delivery_hours h
    WHERE h.account_id = s.account_id AND h.hour >= $2::timestamptz AND h.source_id = s.id) c ON true
  WHERE s.account_id = $1::uuid
  ORDER BY s.created_at, s.id`;

export const SUBSCRIPTIONS_SQL = `SELECT s.id, s.url, s.status::text AS status, s.disabled_reason, s.disabled_at,
    s.failing_since, s.last_delivery_at, s.last_error,
    COALESCE(sum(h.attempts), 0)::int AS attempts,
    COALESCE(sum(h.attempts) FILTER (WHERE h.outcome = 'succeeded'), 0)::int AS succeeded
  FROM webhook_subscriptions s
  LEFT JOIN outbound_attempt_hours h
    ON h.account_id = s.account_id AND h.hour >= $2::timestamptz AND h.subscription_id = s.id
  WHERE s.account_id = $1::uuid
  GROUP BY s.account_id, s.id
  ORDER BY (s.status = 'disabled') DESC, (s.failing_since IS NOT NULL) DESC, s.created_at DESC, s.id
  LIMIT 50`;

export const FEEDS_SQL = `SELECT f.id, f.name, f.paused, f.last_synced_at, f.last_result, f.last_error,
    (SELECT count(*) FROM calendar_feed_syncs y
     WHERE y.feed_id = f.id AND y.started_at >= $2::timestamptz)::int AS syncs,
    (SELECT count(*) FROM calendar_feed_syncs y
     WHERE y.feed_id = f.id AND y.started_at >= $2::timestamptz AND y.result = 'failed')::int AS failed
  FROM calendar_feeds f
  WHERE f.account_id = $1::uuid
  ORDER BY f.created_at, f.id
  LIMIT 50`;

export const HOURS_SQL = `SELECT hour, sum(accepted)::int AS accepted, sum(refused)::int AS refused,
    sum(succeeded)::int AS succeeded, sum(failed)::int AS failed
  FROM (
    SELECT hour, sum(deliveries) FILTER (WHERE outcome IN ${ACCEPTED}) AS accepted,
      sum(deliveries) FILTER (WHERE outcome NOT IN ${ACCEPTED}) AS refused, 0 AS succeeded, 0 AS failed
    FROM webhook_delivery_hours WHERE account_id = $1::uuid AND hour >= $2::timestamptz GROUP BY hour
    UNION ALL
    SELECT hour, 0, 0, sum(attempts) FILTER (WHERE outcome = 'succeeded'),
      sum(attempts) FILTER (WHERE outcome <> 'succeeded')
    FROM outbound_attempt_hours WHERE account_id = $1::uuid AND hour >= $2::timestamptz GROUP BY hour
  ) counted
  GROUP BY hour ORDER BY hour`;

const activeKey = "k.account_id = $1::uuid AND k.revoked_at IS NULL";

/*
 * The keys, the handoffs and the onboarding steps, one row. "Installed the chat widget": a visitor has
 * chatted, or the widget allows a website to frame it (only the embed snippet needs that).
 */
export const ACCOUNT_SQL = `SELECT
    (SELECT count(*) FROM api_keys k
     WHERE ${activeKey} AND (k.expires_at IS NULL OR k.expires_at > now()))::int AS active_keys,
    (SELECT count(*) FROM api_keys k
     WHERE ${activeKey} AND k.last_used_at > now() - interval '30 days')::int AS used_keys,
    (SELECT COALESCE(json_agg(json_build_object('id', k.id, 'name', k.name, 'prefix', k.prefix,
       'expires_at', k.expires_at) ORDER BY k.expires_at), '[]')
     FROM api_keys k
     WHERE ${activeKey} AND k.expires_at > now() AND k.expires_at <= now() + interval '14 days') AS expiring,
    (SELECT count(*) FROM conversations c
     WHERE c.account_id = $1::uuid AND c.status = 'handoff_requested')::int AS waiting,
    EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = $1::uuid) AS created_key,
    EXISTS (SELECT 1 FROM webhook_delivery_hours h WHERE h.account_id = $1::uuid AND h.outcome = 'ok')
      AS connected_webhook,
    (EXISTS (SELECT 1 FROM conversations c WHERE c.account_id = $1::uuid)
      OR EXISTS (SELECT 1 FROM chat_widgets w
                 WHERE w.account_id = $1::uuid AND cardinality(w.allowed_origins) > 0)) AS installed_widget,
    EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.account_id = $1::uuid) AS added_subscription`;
