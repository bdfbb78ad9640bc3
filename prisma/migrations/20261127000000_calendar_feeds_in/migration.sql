-- Calendar feeds in (docs/calendar-feeds.md, "Follow a calendar"): the calendars an account follows, a log
-- row per sync (kept 30 days), and on each event the feed that brought it in with its key within the feed
-- (UID, plus RECURRENCE-ID or the expanded occurrence). Events of other writers have no feed.
-- AlterTable
ALTER TABLE "events" ADD COLUMN     "feed_id" UUID,
ADD COLUMN     "feed_key" TEXT;

-- CreateTable
CREATE TABLE "calendar_feeds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "interval_minutes" INTEGER NOT NULL DEFAULT 15,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "etag" TEXT,
    "last_modified" TEXT,
    "content_hash" TEXT,
    "next_sync_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sync_lease" UUID,
    "sync_started_at" TIMESTAMPTZ(3),
    "last_synced_at" TIMESTAMPTZ(3),
    "last_result" TEXT,
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_feeds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "calendar_feed_syncs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "feed_id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER NOT NULL,
    "http_status" INTEGER,
    "result" TEXT NOT NULL,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "deleted" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "calendar_feed_syncs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "calendar_feeds_account_id_created_at_idx" ON "calendar_feeds"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "calendar_feeds_due_idx" ON "calendar_feeds"("next_sync_at") WHERE (NOT paused);

-- CreateIndex
CREATE INDEX "calendar_feed_syncs_feed_id_started_at_idx" ON "calendar_feed_syncs"("feed_id", "started_at");

-- CreateIndex
CREATE INDEX "calendar_feed_syncs_started_at_idx" ON "calendar_feed_syncs"("started_at");

-- CreateIndex
CREATE UNIQUE INDEX "events_feed_key" ON "events"("feed_id", "feed_key");

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "calendar_feeds"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calendar_feed_syncs" ADD CONSTRAINT "calendar_feed_syncs_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "calendar_feeds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The dashboard offers 5 minutes to a day; anything else would be a feed polled every few seconds or never.
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_interval_minutes_check" CHECK ("interval_minutes" BETWEEN 5 AND 1440);
