/*
 * Stored Idempotency-Key answers are replayed for 24 hours. Their records are partitioned by UTC day and
 * a day's partition is dropped once the day ended 24 hours ago (lib/retention/partitioned-logs.ts); until
 * then the claim ignores rows older than 24 hours (lib/api/idempotency.ts).
 */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
