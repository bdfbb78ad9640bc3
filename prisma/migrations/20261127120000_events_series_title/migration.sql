-- An upsert that names no event exactly may name an occurrence of a series with the same title and
-- location (docs/recurring-events.md): the webhook's upsert statement probes this index, which holds the
-- series only, so a new one-off event is never written beside the series it duplicates, and the probe
-- costs one lookup that usually finds nothing.
CREATE INDEX "events_series_title_idx" ON "events"("account_id", "title", "location") WHERE (recurring <> '');
