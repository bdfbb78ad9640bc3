-- Hourly counters of the two delivery logs (the dashboard's Overview, docs/overview.md): per account, UTC
-- hour, source or subscription, and outcome, how many rows the log got. The writers keep them in the very
-- statement that writes the log row (lib/events-webhook/ingest-sql.ts, lib/outbound/record.ts), so the
-- Overview reads a few hundred counter rows instead of scanning a million log rows, and no extra round
-- trip is added to the webhook.
--
-- Row locks: a webhook request already holds its source's rate-limit row until it commits, so requests
-- of one source are serialised there anyway; the counter row of (source, hour, outcome) adds no new
-- point of contention. The outbound recorder updates counters only after it has locked the subscriptions
-- of its batch (in id order), so two recorders never wait on each other's counter rows.
-- fillfactor leaves room on each page for the updated versions of a row (HOT updates, no index writes).

-- outcome: the delivery log's error_code, 'ok' when it has none.
CREATE TABLE "webhook_delivery_hours" (
    "account_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "source_id" UUID NOT NULL,
    "outcome" TEXT NOT NULL,
    "deliveries" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "webhook_delivery_hours_pkey" PRIMARY KEY ("account_id", "hour", "source_id", "outcome")
) WITH (fillfactor = 70);

-- outcome: the attempt's outcome ('succeeded', 'retry', 'failed', 'disabled').
CREATE TABLE "outbound_attempt_hours" (
    "account_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "outbound_attempt_hours_pkey" PRIMARY KEY ("account_id", "hour", "subscription_id", "outcome")
) WITH (fillfactor = 70);

CREATE INDEX "outbound_attempt_hours_subscription_id_idx" ON "outbound_attempt_hours"("subscription_id");

-- The recorder holds the subscription row already when it first inserts a counter row, so this foreign
-- key's check costs no extra wait; the delivery counters have none, like the delivery log itself
-- (webhook_log_without_row_locks): the trigger below removes a deleted source's counters instead.
ALTER TABLE "outbound_attempt_hours" ADD CONSTRAINT "outbound_attempt_hours_subscription_id_fkey"
  FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE OR REPLACE FUNCTION "webhook_sources_delete_log"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "webhook_deliveries" WHERE "source_id" IN (SELECT "id" FROM removed);
  DELETE FROM "webhook_replays" WHERE "source_id" IN (SELECT "id" FROM removed);
  DELETE FROM "webhook_delivery_hours" WHERE ("account_id", "source_id") IN (SELECT "account_id", "id" FROM removed);
  RETURN NULL;
END;
$$;

-- Problems the account's owners are told about by a banner on every dashboard page until one of them
-- opens the page that fixes it (a disabled subscription, a source that answered only errors for an hour).
CREATE TABLE "account_notices" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "target_label" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "opened_at" TIMESTAMPTZ(3),

    CONSTRAINT "account_notices_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "account_notices_account_id_created_at_idx" ON "account_notices"("account_id", "created_at");
-- At most one open notice per problem.
CREATE UNIQUE INDEX "account_notices_open_key" ON "account_notices"("account_id", "kind", "target_id") WHERE "opened_at" IS NULL;

ALTER TABLE "account_notices" ADD CONSTRAINT "account_notices_account_id_fkey"
  FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The counters of what the logs already hold.
INSERT INTO "webhook_delivery_hours" ("account_id", "hour", "source_id", "outcome", "deliveries")
SELECT d."account_id", date_trunc('hour', d."received_at", 'UTC'), d."source_id", COALESCE(d."error_code", 'ok'), count(*)
FROM "webhook_deliveries" d JOIN "webhook_sources" s ON s."id" = d."source_id"
GROUP BY 1, 2, 3, 4;

INSERT INTO "outbound_attempt_hours" ("account_id", "hour", "subscription_id", "outcome", "attempts")
SELECT s."account_id", date_trunc('hour', a."attempted_at", 'UTC'), a."subscription_id", a."outcome", count(*)
FROM "outbound_attempts" a JOIN "webhook_subscriptions" s ON s."id" = a."subscription_id"
GROUP BY 1, 2, 3, 4;
