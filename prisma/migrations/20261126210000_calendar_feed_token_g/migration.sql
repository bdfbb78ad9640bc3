-- The account's events as an iCalendar feed (docs/calendar-feeds.md): one secret token per account, looked
-- up by its SHA-256 alone; sealed under APP_ENCRYPTION_KEY as well, so the dashboard can show the URL again.
CREATE TABLE "published_calendars" (
    "account_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rotated_at" TIMESTAMPTZ(3),

    CONSTRAINT "published_calendars_pkey" PRIMARY KEY ("account_id")
);

CREATE UNIQUE INDEX "published_calendars_token_hash_key" ON "published_calendars"("token_hash");

ALTER TABLE "published_calendars" ADD CONSTRAINT "published_calendars_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
