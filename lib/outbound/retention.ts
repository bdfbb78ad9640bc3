/*
 * The outbound notifications' part of the retention sweep (lib/retention/sweep.ts runs it):
 * attempts, deliveries and messages older than 30 days, in small batches. Deleting a message deletes
 * its deliveries and their attempts (foreign keys, ON DELETE CASCADE). The longest retry schedule is
 * about 28 hours, so nothing still being delivered is swept.
 */

export const OUTBOUND_RETENTION_DAYS = 30;

export const OUTBOUND_SWEEP_SQL = {
  outboundAttempts: `DELETE FROM outbound_attempts WHERE id IN (
      SELECT id FROM outbound_attempts WHERE attempted_at < now() - interval '${OUTBOUND_RETENTION_DAYS} days'
      ORDER BY attempted_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  outboundDeliveries: `DELETE FROM outbound_deliveries WHERE id IN (
      SELECT id FROM outbound_deliveries WHERE created_at < now() - interval '${OUTBOUND_RETENTION_DAYS} days'
      ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  outboundMessages: `DELETE FROM outbound_messages WHERE id IN (
      SELECT id FROM outbound_messages WHERE created_at < now() - interval '${OUTBOUND_RETENTION_DAYS} days'
      ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
} as const;
