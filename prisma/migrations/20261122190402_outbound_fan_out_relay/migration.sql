-- The writers no longer create deliveries and their jobs (docs/outbound-webhooks.md, "Workers"): their
-- transaction adds one narrow row per message that a subscription wants, and the workers' relay
-- (lib/outbound/relay.ts) creates the deliveries and jobs in batches. Two more rows and six more index
-- entries per change made webhook ingest with one event.* subscription about a third slower.

-- CreateTable
CREATE TABLE "outbound_fan_outs" (
    "id" BIGSERIAL NOT NULL,
    "message_id" TEXT NOT NULL,

    CONSTRAINT "outbound_fan_outs_pkey" PRIMARY KEY ("id")
);

-- The trigger on outbound_messages (migration outbound_deliveries) keeps its name and its statement-level
-- transition table; only its body changes. The relay matches the subscriptions again when it fans out,
-- so a subscription disabled meanwhile gets nothing.
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
  INSERT INTO outbound_fan_outs (message_id)
  SELECT m.id FROM inserted m
  WHERE m.type <> 'test' AND EXISTS (
    SELECT 1 FROM webhook_subscriptions s
    WHERE s.account_id = m.account_id AND s.status = 'active'
      AND ('*' = ANY (s.event_types) OR m.type = ANY (s.event_types) OR split_part(m.type, '.', 1) || '.*' = ANY (s.event_types)))
  ORDER BY m.created_at, m.id;
  GET DIAGNOSTICS queued = ROW_COUNT;
  -- PostgreSQL commits notifying transactions one at a time, so only the writer that wins this
  -- transaction-scoped try-lock wakes the relays; the others' rows are taken by a relay already awake
  -- (it drains until the queue is empty) or by its poll (OUTBOUND_WORKER_POLL_MS).
  -- 1,918,305,121: this wake-up's own advisory lock key (no other lock of the app uses it).
  IF queued > 0 AND pg_try_advisory_xact_lock(1918305121) THEN
    PERFORM pg_notify('outbound:fan_out', '');
  END IF;
  RETURN NULL;
END
$$;
