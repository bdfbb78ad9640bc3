/*
 * Stored Idempotency-Key answers are replayed for 24 hours; the retention sweep deletes older rows in
 * batches ($1 = batch size), skipping rows another instance is deleting.
 */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

export const IDEMPOTENCY_SWEEP_SQL = `DELETE FROM idempotency_keys WHERE (api_key_id, key) IN (
      SELECT api_key_id, key FROM idempotency_keys WHERE created_at < now() - interval
        '${IDEMPOTENCY_RETENTION_HOURS} hours'
      LIMIT $1 FOR UPDATE SKIP LOCKED)`;
