-- The assistant walks each kind of series by phase (lib/assistant/series.ts) and keeps those that have
-- started and are not cancelled; with the start and status in the index (and the id it returns), the walk
-- reads only the index instead of a table row per series passed over, most of which it drops when an
-- account's calendar has many series starting later.
DROP INDEX "events_series_phase_idx";
CREATE INDEX "events_series_phase_idx" ON "events"("account_id", "recurring", "series_phase", "starts_at", "status", "id") WHERE (recurring <> '');
