-- The fan-out queues its delivery jobs without a NOTIFY on every commit (docs/outbound-webhooks.md,
-- "Workers"). graphile-worker's add_jobs NOTIFYs each time, and PostgreSQL holds one database-wide lock
-- from a notifying transaction's pre-commit until its commit is flushed: every writer that queued a
-- delivery committed one after the other, without group commit (webhook ingest with one event.*
-- subscription fell from 815 to 319 requests/s with the worker off).
--
-- Now the trigger inserts the jobs itself, exactly as add_jobs inserts a new job (graphile-worker 0.16's
-- _private_jobs has no triggers), and wakes the workers only when no other transaction is waking them
-- at this moment: a transaction-scoped try-lock, so the writers never wait on one another. A job whose
-- wake-up was skipped is taken by a busy worker's lanes, which claim while jobs are due, or by the idle
-- workers' poll (OUTBOUND_WORKER_POLL_MS).

-- The job rows name their task; add_jobs used to create this row on first use.
INSERT INTO graphile_worker._private_tasks (identifier) VALUES ('deliver') ON CONFLICT DO NOTHING;

CREATE OR REPLACE FUNCTION outbound_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  queued int;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM webhook_subscriptions s
    WHERE s.account_id IN (SELECT DISTINCT account_id FROM inserted) AND s.status = 'active'
  ) THEN
    RETURN NULL;
  END IF;
  WITH created AS (
    INSERT INTO outbound_deliveries (message_id, subscription_id, next_attempt_at)
    SELECT m.id, s.id, now()
    FROM inserted m JOIN webhook_subscriptions s ON s.account_id = m.account_id AND s.status = 'active'
    WHERE m.type <> 'test'
      AND ('*' = ANY (s.event_types) OR m.type = ANY (s.event_types) OR split_part(m.type, '.', 1) || '.*' = ANY (s.event_types))
    ON CONFLICT (message_id, subscription_id) DO NOTHING
    RETURNING id),
  jobs AS (
    -- The job key is the delivery (as the worker's retries and the dashboard's resend use it), so it is queued once.
    INSERT INTO graphile_worker._private_jobs (task_id, payload, run_at, max_attempts, key, priority)
    SELECT (SELECT t.id FROM graphile_worker._private_tasks t WHERE t.identifier = 'deliver'),
           json_build_object('delivery_id', c.id), now(), 25, 'outbound-delivery:' || c.id, 0
    FROM created c
    RETURNING 1)
  SELECT count(*) INTO queued FROM jobs;
  -- 1,918,305,121: this wake-up's own advisory lock key (no other lock of the app uses it).
  IF queued > 0 AND pg_try_advisory_xact_lock(1918305121) THEN
    PERFORM pg_notify('jobs:insert', json_build_object('count', queued)::text);
  END IF;
  RETURN NULL;
END
$$;
