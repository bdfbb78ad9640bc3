-- CreateEnum
CREATE TYPE "OutboundDeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "outbound_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "message_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "status" "OutboundDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbound_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbound_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "delivery_id" UUID NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "response_excerpt" TEXT NOT NULL DEFAULT '',
    "error" TEXT,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "outbound_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbound_deliveries_subscription_id_created_at_idx" ON "outbound_deliveries"("subscription_id", "created_at");

-- CreateIndex
CREATE INDEX "outbound_deliveries_created_at_idx" ON "outbound_deliveries"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbound_deliveries_message_id_subscription_id_key" ON "outbound_deliveries"("message_id", "subscription_id");

-- CreateIndex
CREATE INDEX "outbound_attempts_subscription_id_attempted_at_id_idx" ON "outbound_attempts"("subscription_id", "attempted_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbound_attempts_delivery_id_idx" ON "outbound_attempts"("delivery_id");

-- CreateIndex
CREATE INDEX "outbound_attempts_attempted_at_idx" ON "outbound_attempts"("attempted_at");

-- AddForeignKey
ALTER TABLE "outbound_deliveries" ADD CONSTRAINT "outbound_deliveries_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "outbound_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbound_deliveries" ADD CONSTRAINT "outbound_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbound_attempts" ADD CONSTRAINT "outbound_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "outbound_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (not generated from schema.prisma): the SQL side of the transactional outbox.

-- "whmsg_"-style public ids in SQL: 22 base62 characters (lib/ids.ts generatePublicId), drawn without
-- modulo bias from 64 bytes hashed from four random UUIDs.
CREATE FUNCTION outbound_public_id(prefix text) RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix || string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', get_byte(r.bytes, i) % 62 + 1, 1), '' ORDER BY i)
  FROM (SELECT sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
            || sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())) AS bytes) r,
       LATERAL (SELECT i FROM generate_series(0, 63) AS i WHERE get_byte(r.bytes, i) < 248 ORDER BY i LIMIT 22) picked
$$;

-- An instant as JavaScript's toISOString() writes it ("2026-05-01T08:00:00.000Z").
CREATE FUNCTION outbound_iso_time(t timestamptz) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- An instant in the offset its sender wrote, as lib/events/datetime.ts formatWithOffset writes it.
CREATE FUNCTION outbound_local_time(t timestamptz, utc_offset text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_char(x.local, 'YYYY-MM-DD"T"HH24:MI:SS')
      || CASE WHEN (date_part('milliseconds', x.local))::int % 1000 <> 0 THEN to_char(x.local, '.MS') ELSE '' END
      || CASE WHEN x.valid THEN utc_offset ELSE 'Z' END
  FROM (SELECT v.valid, (t AT TIME ZONE 'UTC') + CASE WHEN v.valid
          THEN (CASE WHEN left(utc_offset, 1) = '-' THEN -1 ELSE 1 END)
               * (substr(utc_offset, 2, 2)::int * 60 + substr(utc_offset, 5, 2)::int) * interval '1 minute'
          ELSE interval '0' END AS local
        FROM (SELECT utc_offset ~ '^[+-][0-9]{2}:[0-9]{2}$' AS valid) v) x
$$;

-- A calendar event as notifications carry it (lib/events/serialize.ts serializeEvent is the same in TypeScript).
CREATE FUNCTION outbound_event_data(e events) RETURNS jsonb LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT jsonb_build_object(
    'id', e.id, 'title', e.title,
    'starts_at', outbound_local_time(e.starts_at, e.starts_at_offset),
    'ends_at', CASE WHEN e.ends_at IS NULL THEN NULL ELSE outbound_local_time(e.ends_at, e.starts_at_offset) END,
    'description', e.description, 'location', e.location, 'url', e.url, 'price', e.price,
    'recurring', e.recurring, 'status', e.status::text,
    'created_at', outbound_iso_time(e.created_at), 'updated_at', outbound_iso_time(e.updated_at))
$$;

-- Fan-out, in the transaction that wrote the messages: one delivery per matching active subscription
-- and one graphile-worker job per delivery (job key = the delivery, so it is queued once). One run per
-- statement, so a CSV import batch costs one trigger call; an account without an active subscription
-- costs one index probe. "test" messages go to one chosen subscription (lib/outbound/manage.ts).
CREATE FUNCTION outbound_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
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
    RETURNING id)
  SELECT count(*) INTO queued FROM graphile_worker.add_jobs(ARRAY(
    SELECT ROW('deliver', json_build_object('delivery_id', id), NULL, NULL, 25, 'outbound-delivery:' || id, NULL, NULL)::graphile_worker.job_spec
    FROM created));
  RETURN NULL;
END
$$;

CREATE TRIGGER outbound_messages_fan_out AFTER INSERT ON outbound_messages
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION outbound_fan_out();
