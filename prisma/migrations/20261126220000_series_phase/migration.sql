-- Where in its cycle a recurring series falls, on the wall clock of the account's zone (docs/recurring-events.md,
-- "The assistant"): the minute of the day (daily), of the week from Sunday (weekly), of a 31-day month
-- (monthly) or of a year of twelve 31-day months (yearly), of its first occurrence. The assistant reads
-- the series that can occur in a window by this number and orders them by it, instead of converting every
-- series' start to local time per question. It only narrows and orders: lib/events/occurrences.ts decides.
ALTER TABLE "events" ADD COLUMN "series_phase" INTEGER;

CREATE FUNCTION "series_phase"(p_recurring TEXT, p_local TIMESTAMP) RETURNS INTEGER
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT extract(hour FROM p_local)::int * 60 + extract(minute FROM p_local)::int + 1440 * CASE p_recurring
    WHEN 'daily' THEN 0
    WHEN 'weekly' THEN extract(dow FROM p_local)::int
    WHEN 'monthly' THEN extract(day FROM p_local)::int - 1
    WHEN 'yearly' THEN (extract(month FROM p_local)::int - 1) * 31 + extract(day FROM p_local)::int - 1
  END
$$;

-- The account's zone, or UTC for a name this server's zone database does not know (the app checks
-- names with Intl, whose database may be newer): a write must never fail over it.
CREATE FUNCTION "series_phase_in_zone"(p_recurring TEXT, p_starts_at TIMESTAMPTZ, p_zone TEXT) RETURNS INTEGER
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN "series_phase"(p_recurring, p_starts_at AT TIME ZONE p_zone);
EXCEPTION WHEN invalid_parameter_value THEN
  RETURN "series_phase"(p_recurring, p_starts_at AT TIME ZONE 'UTC');
END $$;

-- Kept by triggers that fire for series only (the WHEN clauses), so writes of one-off events, the
-- webhook's hot path, never call them.
CREATE FUNCTION "events_set_series_phase"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."series_phase" := CASE WHEN NEW."recurring" = '' THEN NULL ELSE
    "series_phase_in_zone"(NEW."recurring", NEW."starts_at", (SELECT "timezone" FROM "accounts" WHERE "id" = NEW."account_id")) END;
  RETURN NEW;
END $$;

CREATE TRIGGER "events_series_phase_before_insert" BEFORE INSERT ON "events" FOR EACH ROW
  WHEN (NEW."recurring" <> '') EXECUTE FUNCTION "events_set_series_phase"();
CREATE TRIGGER "events_series_phase_before_update" BEFORE UPDATE OF "starts_at", "recurring" ON "events" FOR EACH ROW
  WHEN (OLD."starts_at" IS DISTINCT FROM NEW."starts_at" OR OLD."recurring" IS DISTINCT FROM NEW."recurring")
  EXECUTE FUNCTION "events_set_series_phase"();

-- A new zone moves every series' wall clock.
CREATE FUNCTION "accounts_reset_series_phase"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "events" SET "series_phase" = "series_phase_in_zone"("recurring", "starts_at", NEW."timezone")
  WHERE "account_id" = NEW."id" AND "recurring" <> '';
  RETURN NULL;
END $$;

CREATE TRIGGER "accounts_series_phase_after_zone" AFTER UPDATE OF "timezone" ON "accounts" FOR EACH ROW
  WHEN (OLD."timezone" IS DISTINCT FROM NEW."timezone") EXECUTE FUNCTION "accounts_reset_series_phase"();

UPDATE "events" e SET "series_phase" = "series_phase_in_zone"(e."recurring", e."starts_at", a."timezone")
FROM "accounts" a WHERE a."id" = e."account_id" AND e."recurring" <> '';

CREATE INDEX "events_series_phase_idx" ON "events"("account_id", "recurring", "series_phase") WHERE (recurring <> '');

-- Series longer than a day, which the assistant reads whatever their phase (few; the planner cannot
-- estimate "ends_at - starts_at > 1 day" and would otherwise scan the table for them).
CREATE INDEX "events_series_long_idx" ON "events"("account_id") WHERE (recurring <> '' AND (ends_at - starts_at) > '1 day'::interval);
