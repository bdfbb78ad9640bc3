-- The feed key index covers only the events a calendar feed brought in. With account_id leading it
-- (tenant keys), the webhook's identity lookup could be planned on it: a generic plan made while the
-- account had no events then walked every event of the account on each upsert. Other writers' events
-- have no feed key (NULLs never meet in a unique index), so leaving them out changes no guarantee, and
-- they no longer pay for maintaining an index they are absent from.
DROP INDEX "events_feed_key";
CREATE UNIQUE INDEX "events_feed_key" ON "events"("account_id", "feed_id", "feed_key") WHERE "feed_id" IS NOT NULL;
