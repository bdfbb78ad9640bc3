-- The events webhook's delivery log, its replay records and the public API's Idempotency-Key answers are
-- partitioned by UTC day and retained by dropping whole days (docs/scaling.md, "Time-partitioned logs";
-- the day functions are in migration daily_partitions). Every primary key includes the partition column
-- and account_id, as native partitioning (and a later distribution by account, docs/scaling.md, "Citus")
-- requires.
--
-- - webhook_deliveries: by received_at. Primary key (id, received_at, account_id); ids are time-ordered
--   (outbound_row_id(), UUIDv7 on PostgreSQL 18), so new keys append at the right edge of each day's index.
-- - webhook_replays: by signed_at, the request's signed timestamp (X-Service-Timestamp, which the
--   signature covers): a replay carries the same timestamp, so it meets its original in the same day's
--   partition even when it arrives after midnight. Rows copied from before carry their acceptance time,
--   which lies within the ±300 s window of their signed time (lib/events-webhook/ingest-sql.ts looks in
--   that window).
-- - idempotency_keys: by created_at. Primary key (account_id, api_key_id, key, created_at); one live claim
--   per key across days is kept by idempotency_claim() below, not by the key.
--
-- The whole script is one transaction: writers wait until the copy is done (plan a quiet moment when the
-- log is large). No row is lost: every row is copied into the day partition of its time, partitions exist
-- for every day that has rows plus yesterday to a week ahead, and the counts are compared before the old
-- tables go.

-- A replay record whose source is gone cannot match a request (the source's trigger removed the others).
DELETE FROM "webhook_replays" r WHERE NOT EXISTS (SELECT 1 FROM "webhook_sources" s WHERE s."id" = r."source_id");
-- The same for a stored answer of an API key that no longer exists: no request can present that key.
DELETE FROM "idempotency_keys" i WHERE NOT EXISTS (SELECT 1 FROM "api_keys" k WHERE k."id" = i."api_key_id");

DROP INDEX "webhook_deliveries_source_id_received_at_id_idx";
DROP INDEX "webhook_deliveries_received_at_idx";
DROP INDEX "webhook_replays_accepted_at_idx";
DROP INDEX "idempotency_keys_created_at_idx";
ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_unpartitioned";
ALTER TABLE "webhook_deliveries_unpartitioned" RENAME CONSTRAINT "webhook_deliveries_pkey" TO "webhook_deliveries_unpartitioned_pkey";
ALTER TABLE "webhook_replays" RENAME TO "webhook_replays_unpartitioned";
ALTER TABLE "webhook_replays_unpartitioned" RENAME CONSTRAINT "webhook_replays_pkey" TO "webhook_replays_unpartitioned_pkey";
ALTER TABLE "idempotency_keys" RENAME TO "idempotency_keys_unpartitioned";
ALTER TABLE "idempotency_keys_unpartitioned" RENAME CONSTRAINT "idempotency_keys_pkey" TO "idempotency_keys_unpartitioned_pkey";

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT outbound_row_id(),
    "account_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT,
    "status" INTEGER NOT NULL,
    "event_title" TEXT,
    "occurrence_at" TIMESTAMPTZ(3),
    "error_code" TEXT,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "body" TEXT NOT NULL DEFAULT '',
    "body_bytes" INTEGER NOT NULL DEFAULT 0,
    "headers" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id", "received_at", "account_id")
) PARTITION BY RANGE ("received_at");

CREATE TABLE "webhook_replays" (
    "account_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "signature" TEXT NOT NULL,
    "signed_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_replays_pkey" PRIMARY KEY ("account_id", "source_id", "signature", "signed_at")
) PARTITION BY RANGE ("signed_at");

CREATE TABLE "idempotency_keys" (
    "account_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "sealed" BOOLEAN NOT NULL DEFAULT false,
    "headers" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("account_id", "api_key_id", "key", "created_at")
) PARTITION BY RANGE ("created_at");

-- Every instance's sweep and worker create the coming days, so two may create the same day at once: the
-- loser of that race meets the catalogue's unique index (unique_violation) rather than duplicate_table, and
-- skips the day as well.
CREATE OR REPLACE FUNCTION create_daily_partitions(parent regclass, first_day date, last_day date)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day date := first_day;
  created integer := 0;
  schema_name text;
BEGIN
  SELECT n.nspname INTO schema_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
  WHILE day <= last_day LOOP
    IF to_regclass(format('%I.%I', schema_name, daily_partition_name(parent, day))) IS NULL THEN
      BEGIN
        EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
          schema_name, daily_partition_name(parent, day), parent,
          (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
        created := created + 1;
      EXCEPTION WHEN duplicate_table OR unique_violation THEN
        NULL;
      END;
    END IF;
    day := day + 1;
  END LOOP;
  RETURN created;
END;
$$;

-- A day partition for every day that has rows, and yesterday to a week ahead (as the worker's hourly job
-- keeps them).
DO $$
DECLARE
  ahead date[] := ARRAY(SELECT generate_series(current_date - 1, current_date + 7, interval '1 day')::date);
  day date;
BEGIN
  FOR day IN SELECT DISTINCT (received_at AT TIME ZONE 'UTC')::date FROM "webhook_deliveries_unpartitioned"
    UNION SELECT unnest(ahead) LOOP
    PERFORM create_daily_partitions('webhook_deliveries'::regclass, day, day);
  END LOOP;
  FOR day IN SELECT DISTINCT (accepted_at AT TIME ZONE 'UTC')::date FROM "webhook_replays_unpartitioned"
    UNION SELECT unnest(ahead) LOOP
    PERFORM create_daily_partitions('webhook_replays'::regclass, day, day);
  END LOOP;
  FOR day IN SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date FROM "idempotency_keys_unpartitioned"
    UNION SELECT unnest(ahead) LOOP
    PERFORM create_daily_partitions('idempotency_keys'::regclass, day, day);
  END LOOP;
END
$$;

INSERT INTO "webhook_deliveries" ("id", "account_id", "source_id", "received_at", "action", "status", "event_title",
  "occurrence_at", "error_code", "latency_ms", "body", "body_bytes", "headers")
SELECT "id", "account_id", "source_id", "received_at", "action", "status", "event_title", "occurrence_at",
  "error_code", "latency_ms", "body", "body_bytes", "headers"
FROM "webhook_deliveries_unpartitioned";

INSERT INTO "webhook_replays" ("account_id", "source_id", "signature", "signed_at", "accepted_at")
SELECT s."account_id", r."source_id", r."signature", r."accepted_at", r."accepted_at"
FROM "webhook_replays_unpartitioned" r JOIN "webhook_sources" s ON s."id" = r."source_id";

INSERT INTO "idempotency_keys" ("account_id", "api_key_id", "key", "fingerprint", "status", "body", "sealed",
  "headers", "created_at", "completed_at")
SELECT k."account_id", i."api_key_id", i."key", i."fingerprint", i."status", i."body", i."sealed", i."headers",
  i."created_at", i."completed_at"
FROM "idempotency_keys_unpartitioned" i JOIN "api_keys" k ON k."id" = i."api_key_id";

DO $$
BEGIN
  IF (SELECT count(*) FROM "webhook_deliveries") <> (SELECT count(*) FROM "webhook_deliveries_unpartitioned")
    OR (SELECT count(*) FROM "webhook_replays") <> (SELECT count(*) FROM "webhook_replays_unpartitioned")
    OR (SELECT count(*) FROM "idempotency_keys") <> (SELECT count(*) FROM "idempotency_keys_unpartitioned") THEN
    RAISE EXCEPTION 'webhook_logs_daily_partitions: a row was not copied';
  END IF;
END
$$;

DROP TABLE "webhook_deliveries_unpartitioned";
DROP TABLE "webhook_replays_unpartitioned";
DROP TABLE "idempotency_keys_unpartitioned";

-- Recent Deliveries pages a source's log newest first (lib/events-webhook/deliveries.ts).
CREATE INDEX "webhook_deliveries_source_id_received_at_id_idx" ON "webhook_deliveries"("source_id", "received_at" DESC, "id" DESC);

-- A removed source's log and replay records go with it, as before (migration webhook_log_without_row_locks
-- says why there is no foreign key); by account and source, so each statement names its tenant.
CREATE OR REPLACE FUNCTION "webhook_sources_delete_log"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "webhook_deliveries" WHERE ("account_id", "source_id") IN (SELECT "account_id", "id" FROM removed);
  DELETE FROM "webhook_replays" WHERE ("account_id", "source_id") IN (SELECT "account_id", "id" FROM removed);
  DELETE FROM "webhook_delivery_hours" WHERE ("account_id", "source_id") IN (SELECT "account_id", "id" FROM removed);
  RETURN NULL;
END;
$$;

-- Claims an Idempotency-Key for one request, or answers with the claim or stored answer that already holds
-- it (claimed = false). The primary key includes created_at, so it cannot stop two claims of one key made
-- at different instants (and across midnight they land in different partitions): a transaction-scoped
-- advisory lock on the key serialises its claimers instead, and each statement after the lock takes a
-- fresh snapshot (READ COMMITTED, VOLATILE function), so a claimer that waited sees the claim committed
-- before it. Only claims younger than p_window count, whatever partitions still hold older ones; a claim
-- still unanswered after p_abandoned belongs to a request that died and is dropped. One round trip.
CREATE FUNCTION idempotency_claim(p_account uuid, p_api_key uuid, p_key text, p_fingerprint text,
  p_window interval, p_abandoned interval, p_at timestamptz DEFAULT statement_timestamp())
RETURNS TABLE (claimed boolean, created_at timestamptz, fingerprint text, status integer, body text,
  sealed boolean, headers jsonb)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('idempotency:' || p_account || ':' || p_api_key || ':' || p_key, 0));
  DELETE FROM idempotency_keys k
    WHERE k.account_id = p_account AND k.api_key_id = p_api_key AND k.key = p_key
      AND k.created_at > p_at - p_window AND k.status IS NULL AND k.created_at < p_at - p_abandoned;
  RETURN QUERY SELECT false, k.created_at, k.fingerprint, k.status, k.body, k.sealed, k.headers
    FROM idempotency_keys k
    WHERE k.account_id = p_account AND k.api_key_id = p_api_key AND k.key = p_key AND k.created_at > p_at - p_window
    ORDER BY k.created_at DESC LIMIT 1;
  IF FOUND THEN
    RETURN;
  END IF;
  RETURN QUERY INSERT INTO idempotency_keys AS k (account_id, api_key_id, key, fingerprint, created_at)
    VALUES (p_account, p_api_key, p_key, p_fingerprint, p_at)
    RETURNING true, k.created_at, k.fingerprint, k.status, k.body, k.sealed, k.headers;
END;
$$;
