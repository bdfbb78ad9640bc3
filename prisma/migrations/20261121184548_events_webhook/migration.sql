-- CreateEnum
CREATE TYPE "EventStatus" AS ENUM ('upcoming', 'cancelled');

-- CreateTable
CREATE TABLE "webhook_sources" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "public_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_ciphertext" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "rate_limit_per_minute" INTEGER NOT NULL DEFAULT 300,
    "secret_rotated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "starts_at_offset" TEXT NOT NULL DEFAULT 'Z',
    "ends_at" TIMESTAMPTZ(3),
    "description" TEXT NOT NULL DEFAULT '',
    "location" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL DEFAULT '',
    "price" TEXT NOT NULL DEFAULT '',
    "recurring" TEXT NOT NULL DEFAULT '',
    "status" "EventStatus" NOT NULL DEFAULT 'upcoming',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT,
    "status" INTEGER NOT NULL,
    "event_title" TEXT,
    "error_code" TEXT,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "body" TEXT NOT NULL DEFAULT '',
    "body_bytes" INTEGER NOT NULL DEFAULT 0,
    "headers" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_replays" (
    "source_id" UUID NOT NULL,
    "signature" TEXT NOT NULL,
    "accepted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_replays_pkey" PRIMARY KEY ("source_id","signature")
);

-- CreateIndex
CREATE UNIQUE INDEX "webhook_sources_public_id_key" ON "webhook_sources"("public_id");

-- CreateIndex
CREATE INDEX "webhook_sources_account_id_created_at_idx" ON "webhook_sources"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "events_account_id_starts_at_idx" ON "events"("account_id", "starts_at");

-- CreateIndex
CREATE UNIQUE INDEX "events_identity_key" ON "events"("account_id", "title", "starts_at", "location");

-- CreateIndex
CREATE INDEX "webhook_deliveries_source_id_received_at_id_idx" ON "webhook_deliveries"("source_id", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_received_at_idx" ON "webhook_deliveries"("received_at");

-- CreateIndex
CREATE INDEX "webhook_replays_accepted_at_idx" ON "webhook_replays"("accepted_at");

-- AddForeignKey
ALTER TABLE "webhook_sources" ADD CONSTRAINT "webhook_sources_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "webhook_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_replays" ADD CONSTRAINT "webhook_replays_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "webhook_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
