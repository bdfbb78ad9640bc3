-- The outbound queue and its per-subscription circuits (docs/outbound-webhooks.md, "Workers" and
-- "Answers, retries and disabling"). A pending delivery waits in outbound_queue, not as a graphile-worker
-- job: one narrow row per delivery still to attempt, deleted once it succeeds or fails for good. A row
-- whose subscription's circuit is open is parked (run_at 'infinity') until the circuit closes.
CREATE TABLE "outbound_queue" (
    "account_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "delivery_created_at" TIMESTAMPTZ(3) NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_by" TEXT,
    "locked_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbound_queue_pkey" PRIMARY KEY ("account_id", "delivery_id")
);

-- The workers' claim: due rows nobody holds, oldest first.
CREATE INDEX "outbound_queue_due_idx" ON "outbound_queue"("run_at", "seq") WHERE locked_at IS NULL;
-- A subscription's rows in queue order: parking, draining and the probe's pick.
CREATE INDEX "outbound_queue_subscription_idx" ON "outbound_queue"("account_id", "subscription_id", "seq");
-- The stale-lock sweep.
CREATE INDEX "outbound_queue_locked_idx" ON "outbound_queue"("locked_at") WHERE locked_at IS NOT NULL;

-- One row per subscription whose receiver is failing: nothing of it is attempted until paused_until,
-- then one probe delivery; a success deletes the row, a failure pauses it again.
CREATE TABLE "outbound_circuits" (
    "account_id" UUID NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failures" INTEGER NOT NULL DEFAULT 1,
    "paused_until" TIMESTAMPTZ(3) NOT NULL,
    "probe_delivery_id" UUID,
    "probe_started_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbound_circuits_pkey" PRIMARY KEY ("account_id", "subscription_id")
);

CREATE INDEX "outbound_circuits_paused_until_idx" ON "outbound_circuits"("paused_until");

-- Deliveries pending when this migration runs move from graphile-worker's jobs to the queue, so nothing
-- pending is lost by the upgrade; the workers remove the old "deliver" jobs through graphile-worker's
-- complete_jobs (lib/outbound/queue.ts).
INSERT INTO "outbound_queue" ("account_id", "delivery_id", "subscription_id", "delivery_created_at", "run_at")
SELECT d.account_id, d.id, d.subscription_id, d.created_at, COALESCE(d.next_attempt_at, now())
FROM outbound_deliveries d
WHERE d.status = 'pending'
ORDER BY d.created_at, d.id;
