-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('active', 'disabled');

-- CreateTable
CREATE TABLE "webhook_subscriptions" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "event_types" TEXT[],
    "description" TEXT NOT NULL DEFAULT '',
    "status" "SubscriptionStatus" NOT NULL DEFAULT 'active',
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "secret_ciphertext" TEXT NOT NULL,
    "previous_secret_ciphertext" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "last_delivery_at" TIMESTAMPTZ(3),
    "last_delivery_ok" BOOLEAN,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbound_messages" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbound_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_subscriptions_account_id_created_at_id_idx" ON "webhook_subscriptions"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbound_messages_account_id_created_at_id_idx" ON "outbound_messages"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbound_messages_account_id_type_created_at_id_idx" ON "outbound_messages"("account_id", "type", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbound_messages_created_at_idx" ON "outbound_messages"("created_at");

-- AddForeignKey
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
