-- The outbound log (notifications, deliveries, attempts) is partitioned by UTC day and retained by
-- dropping whole days (docs/scaling.md, "Time-partitioned logs"; the day functions are in migration
-- daily_partitions). Every row carries account_id, and every primary and unique key includes it and the
-- partition column, as native partitioning (and a later distribution by account, docs/scaling.md,
-- "Citus") requires.
--
-- Keys and joins:
-- - outbound_messages: by created_at. Primary key (id, created_at, account_id): a lookup by id alone still
--   finds its row through each day's index; naming the time as well reads one day only.
-- - outbound_deliveries: by created_at, which is its message's created_at (the relay and the test
--   notification copy it), so a delivery sits in its message's day, joins it on (account_id, created_at,
--   message_id), and (message, subscription) is unique across days, not only within one.
-- - outbound_attempts: by attempted_at, with delivery_created_at naming its delivery's day.
-- - outbound_fan_outs (a hand-off queue, not a log; not partitioned): account_id and message_created_at,
--   so the relay reads each message by its whole key.
--
-- No foreign keys between these three tables: a key referencing a partitioned table must include its
-- partition column, and a day referenced by another table cannot be detached CONCURRENTLY. Integrity is
-- kept by the writers instead: a delivery is written in the statement that reads its message (the relay,
-- the test notification), an attempt in the statement that updates its delivery (lib/outbound/record.ts);
-- retention drops the same days of all three, so an older message never outlives its deliveries by more
-- than a day. Deleting a subscription still deletes its deliveries (their foreign key) and its attempts
-- (the trigger below); deleting an account deletes its notifications (their foreign key).
--
-- The whole script is one transaction: writers of notifications wait until the copy is done (plan a
-- quiet moment when the tables are large). No row is lost: every row is copied into the day partition of
-- its time, and the partitions exist for every day that has rows, plus yesterday to a week ahead.

-- The old tables make way; their secondary indexes are not needed for the copy.
DROP INDEX "outbound_messages_account_id_created_at_id_idx";
DROP INDEX "outbound_messages_account_id_type_created_at_id_idx";
DROP INDEX "outbound_messages_created_at_idx";
DROP INDEX "outbound_deliveries_subscription_id_created_at_idx";
DROP INDEX "outbound_deliveries_created_at_idx";
DROP INDEX "outbound_attempts_subscription_id_attempted_at_id_idx";
DROP INDEX "outbound_attempts_delivery_id_idx";
DROP INDEX "outbound_attempts_attempted_at_idx";
DROP TRIGGER "outbound_messages_fan_out" ON "outbound_messages";
ALTER TABLE "outbound_messages" RENAME TO "outbound_messages_unpartitioned";
ALTER TABLE "outbound_messages_unpartitioned" RENAME CONSTRAINT "outbound_messages_pkey" TO "outbound_messages_unpartitioned_pkey";
ALTER TABLE "outbound_deliveries" RENAME TO "outbound_deliveries_unpartitioned";
ALTER TABLE "outbound_deliveries_unpartitioned" RENAME CONSTRAINT "outbound_deliveries_pkey" TO "outbound_deliveries_unpartitioned_pkey";
ALTER INDEX "outbound_deliveries_message_id_subscription_id_key" RENAME TO "outbound_deliveries_unpartitioned_key";
ALTER TABLE "outbound_attempts" RENAME TO "outbound_attempts_unpartitioned";
ALTER TABLE "outbound_attempts_unpartitioned" RENAME CONSTRAINT "outbound_attempts_pkey" TO "outbound_attempts_unpartitioned_pkey";

CREATE TABLE "outbound_messages" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbound_messages_pkey" PRIMARY KEY ("id", "created_at", "account_id")
) PARTITION BY RANGE ("created_at");

CREATE TABLE "outbound_deliveries" (
    "id" UUID NOT NULL DEFAULT outbound_row_id(),
    "account_id" UUID NOT NULL,
    "message_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "status" "OutboundDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbound_deliveries_pkey" PRIMARY KEY ("id", "created_at", "account_id")
) PARTITION BY RANGE ("created_at");

CREATE TABLE "outbound_attempts" (
    "id" UUID NOT NULL DEFAULT outbound_row_id(),
    "account_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "delivery_created_at" TIMESTAMPTZ(3) NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "response_excerpt" TEXT NOT NULL DEFAULT '',
    "error" TEXT,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "outbound_attempts_pkey" PRIMARY KEY ("id", "attempted_at", "account_id")
) PARTITION BY RANGE ("attempted_at");

-- A day partition for every day that has rows, and yesterday to a week ahead (as the worker's hourly job
-- keeps them).
DO $$
DECLARE
  day date;
BEGIN
  FOR day IN
    SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date FROM "outbound_messages_unpartitioned"
    UNION SELECT generate_series(current_date - 1, current_date + 7, interval '1 day')::date
  LOOP
    -- Deliveries take their message's day, so both get the same days.
    PERFORM create_daily_partitions('outbound_messages'::regclass, day, day);
    PERFORM create_daily_partitions('outbound_deliveries'::regclass, day, day);
  END LOOP;
  FOR day IN
    SELECT DISTINCT (attempted_at AT TIME ZONE 'UTC')::date FROM "outbound_attempts_unpartitioned"
    UNION SELECT generate_series(current_date - 1, current_date + 7, interval '1 day')::date
  LOOP
    PERFORM create_daily_partitions('outbound_attempts'::regclass, day, day);
  END LOOP;
END
$$;

INSERT INTO "outbound_messages" ("id", "account_id", "type", "payload", "created_at")
SELECT "id", "account_id", "type", "payload", "created_at" FROM "outbound_messages_unpartitioned";

-- Every delivery has its message and subscription (their foreign keys, ON DELETE CASCADE).
INSERT INTO "outbound_deliveries" ("id", "account_id", "message_id", "subscription_id", "status", "attempts",
  "next_attempt_at", "created_at", "updated_at")
SELECT d."id", m."account_id", d."message_id", d."subscription_id", d."status", d."attempts", d."next_attempt_at",
  m."created_at", d."updated_at"
FROM "outbound_deliveries_unpartitioned" d JOIN "outbound_messages_unpartitioned" m ON m."id" = d."message_id";

-- Every attempt has its delivery (its foreign key, ON DELETE CASCADE).
INSERT INTO "outbound_attempts" ("id", "account_id", "delivery_id", "delivery_created_at", "subscription_id",
  "attempt", "attempted_at", "status_code", "duration_ms", "response_excerpt", "error", "outcome")
SELECT a."id", d."account_id", a."delivery_id", d."created_at", a."subscription_id", a."attempt", a."attempted_at",
  a."status_code", a."duration_ms", a."response_excerpt", a."error", a."outcome"
FROM "outbound_attempts_unpartitioned" a JOIN "outbound_deliveries" d ON d."id" = a."delivery_id";

-- A fan-out row names its message by its whole key. Rows whose message is gone fan out to nothing (the
-- relay finds no message), so they go.
ALTER TABLE "outbound_fan_outs" ADD COLUMN "account_id" UUID, ADD COLUMN "message_created_at" TIMESTAMPTZ(3);
UPDATE "outbound_fan_outs" f SET "account_id" = m."account_id", "message_created_at" = m."created_at"
FROM "outbound_messages" m WHERE m."id" = f."message_id";
DELETE FROM "outbound_fan_outs" WHERE "account_id" IS NULL;
ALTER TABLE "outbound_fan_outs" ALTER COLUMN "account_id" SET NOT NULL, ALTER COLUMN "message_created_at" SET NOT NULL;
ALTER TABLE "outbound_fan_outs" DROP CONSTRAINT "outbound_fan_outs_pkey";
ALTER TABLE "outbound_fan_outs" ADD CONSTRAINT "outbound_fan_outs_pkey" PRIMARY KEY ("id", "account_id");

-- The copies above rely on the old foreign keys to find every row's message and delivery; the counts are
-- compared all the same, so that a copy that skipped a row fails the migration (one transaction) instead.
DO $$
BEGIN
  IF (SELECT count(*) FROM "outbound_messages") <> (SELECT count(*) FROM "outbound_messages_unpartitioned")
    OR (SELECT count(*) FROM "outbound_deliveries") <> (SELECT count(*) FROM "outbound_deliveries_unpartitioned")
    OR (SELECT count(*) FROM "outbound_attempts") <> (SELECT count(*) FROM "outbound_attempts_unpartitioned") THEN
    RAISE EXCEPTION 'outbound_daily_partitions: a row was not copied';
  END IF;
END
$$;

DROP TABLE "outbound_attempts_unpartitioned";
DROP TABLE "outbound_deliveries_unpartitioned";
DROP TABLE "outbound_messages_unpartitioned";

CREATE INDEX "outbound_messages_account_id_created_at_id_idx" ON "outbound_messages"("account_id", "created_at", "id");
CREATE INDEX "outbound_messages_account_id_type_created_at_id_idx" ON "outbound_messages"("account_id", "type", "created_at", "id");
CREATE UNIQUE INDEX "outbound_deliveries_message_id_subscription_id_key" ON "outbound_deliveries"("message_id", "subscription_id", "created_at", "account_id");
CREATE INDEX "outbound_deliveries_subscription_id_created_at_idx" ON "outbound_deliveries"("subscription_id", "created_at");
CREATE INDEX "outbound_attempts_subscription_id_attempted_at_id_idx" ON "outbound_attempts"("subscription_id", "attempted_at", "id");

-- Partitions do not inherit storage parameters: each day of the deliveries is left half-full, as the
-- table was (migration outbound_deliveries_fillfactor), so that recording an attempt updates its delivery
-- in place (a HOT update). Days created later get it from the partition job (lib/outbound/partitions.ts).
DO $$
DECLARE
  part regclass;
BEGIN
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'outbound_deliveries'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 50)', part);
  END LOOP;
END
$$;

ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "outbound_deliveries" ADD CONSTRAINT "outbound_deliveries_account_id_subscription_id_fkey"
  FOREIGN KEY ("account_id", "subscription_id") REFERENCES "webhook_subscriptions"("account_id", "id")
  ON DELETE CASCADE ON UPDATE CASCADE;

-- A deleted subscription's attempts go with it (a foreign key would check every attempt the workers write).
CREATE FUNCTION "webhook_subscriptions_delete_attempts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "outbound_attempts" WHERE "subscription_id" IN (SELECT "id" FROM removed);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_subscriptions_delete_attempts" AFTER DELETE ON "webhook_subscriptions"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "webhook_subscriptions_delete_attempts"();

-- The fan-out trigger (migration outbound_fan_out_relay) keeps its name and body, but the fan-out row now
-- carries the message's account and time.
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
  INSERT INTO outbound_fan_outs (account_id, message_id, message_created_at)
  SELECT m.account_id, m.id, m.created_at FROM inserted m
  WHERE m.type <> 'test' AND EXISTS (
    SELECT 1 FROM webhook_subscriptions s
    WHERE s.account_id = m.account_id AND s.status = 'active'
      AND ('*' = ANY (s.event_types) OR m.type = ANY (s.event_types) OR split_part(m.type, '.', 1) || '.*' = ANY (s.event_types)))
  ORDER BY m.created_at, m.id;
  GET DIAGNOSTICS queued = ROW_COUNT;
  -- PostgreSQL commits notifying transactions one at a time, so only the writer that wins this
  -- transaction-scoped try-lock wakes the relays (migration outbound_fan_out_relay).
  -- 1,918,305,121: this wake-up's own advisory lock key (no other lock of the app uses it).
  IF queued > 0 AND pg_try_advisory_xact_lock(1918305121) THEN
    PERFORM pg_notify('outbound:fan_out', '');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER outbound_messages_fan_out AFTER INSERT ON outbound_messages
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION outbound_fan_out();
