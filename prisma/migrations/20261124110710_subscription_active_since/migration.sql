-- The fan-out relay (lib/outbound/relay.ts) matches subscriptions when it runs, which after a backlog
-- can be long after the message was written. A subscription must not receive what was written before it
-- existed or while it was disabled, so it records since when it has been active without a break: set on
-- create and on re-enable; the relay compares it with the message's created_at.

-- AlterTable
ALTER TABLE "webhook_subscriptions" ADD COLUMN     "active_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Existing subscriptions keep every message still waiting for the relay: their history of re-enables is
-- not recorded, and creation is the earliest instant that is true for all of them.
UPDATE "webhook_subscriptions" SET "active_since" = "created_at";
