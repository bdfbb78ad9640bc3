import { PUBLIC_IDS } from "@/lib/platform/ids";

/*
 * The transactional outbox in SQL (docs/outbound-webhooks.md, "Delivery"): a notification is a row of
 * outbound_messages written by the same statement or transaction as the change it announces, so a change
 * that rolls back notifies nobody and a committed one is never lost. The row's trigger (migrations
 * outbound_deliveries and outbound_fan_out_relay) queues it, in the same transaction, for the workers'
 * relay (relay.ts) when a subscription of the account wants it. The SQL functions used here
 * (outbound_public_id, outbound_iso_time, outbound_event_data) live in migration outbound_deliveries,
 * except outbound_public_id's current body, which is in migration outbound_message_ids_time_ordered.
 * No server-only marker: the webhook benchmark's reference server runs these statements too.
 */

/**
 * A data-modifying CTE named `name` that writes one message per row of `source`, a query with the
 * columns account_id (uuid), type (text) and data (jsonb). The payload is exactly the body receivers
 * get: {"id", "type", "created_at", "data"}.
 */
export function emitMessagesCte(name: string, source: string): string {
  // OFFSET 0 keeps the subquery (and its volatile id) from being inlined: one id per message.
  return `${name} AS (
    INSERT INTO outbound_messages (id, account_id, type, payload, created_at)
    SELECT m.id, m.account_id, m.type,
           jsonb_build_object('id', m.id, 'type', m.type, 'created_at', outbound_iso_time(m.at), 'data', m.data), m.at
    FROM (SELECT outbound_public_id('${PUBLIC_IDS.notification.prefix}') AS id, s.account_id, s.type, s.data,
                 date_trunc('milliseconds', statement_timestamp()) AS at
          FROM (${source}) s OFFSET 0) m
    RETURNING id, created_at)`;
}

/**
 * The event as notifications carry it, for a RETURNING list over the events row `alias`, with its
 * next_occurrence_at as of this statement. A statement that removes or restores one occurrence names it
 * (`change`): its own write to event_exceptions is not visible to the statement itself.
 */
export const eventData = (alias: string, change?: { removed: string } | { restored: string }) =>
  change === undefined
    ? `outbound_event_data(${alias}) AS data`
    : "removed" in change
      ? `outbound_event_data(${alias}, p_removed => ${change.removed}::timestamptz) AS data`
      : `outbound_event_data(${alias}, p_restored => ${change.restored}::timestamptz) AS data`;
