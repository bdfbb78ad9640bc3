-- A series whose first start or rule changes (the dashboard's Edit, a followed calendar's new DTSTART)
-- keeps its removed occurrences by their day on the account's clock (docs/recurring-events.md): the class
-- cancelled on Saturday 12 December stays cancelled when the series moves from 09:00 to 10:00, and from
-- the 3rd to the 10th of October. A removal whose day has no occurrence of the changed series (another
-- weekday, the first occurrence itself) names nothing any more and is deleted, as are all of an event's
-- removals when it stops repeating. Without this, a stale removal would still show with Restore, the feed
-- would write an EXDATE that matches nothing, and the occurrence it meant would come back.
-- A zone name this server does not know is read as UTC, as series_phase_in_zone does.
CREATE FUNCTION "events_move_exceptions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_zone TEXT := COALESCE((SELECT "timezone" FROM "accounts" WHERE "id" = NEW."account_id"), 'UTC');
  v_first TIMESTAMP;
BEGIN
  IF NEW."recurring" = '' THEN
    DELETE FROM "event_exceptions" WHERE "account_id" = NEW."account_id" AND "event_id" = NEW."id";
    RETURN NULL;
  END IF;
  BEGIN
    v_first := NEW."starts_at" AT TIME ZONE v_zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    v_zone := 'UTC';
    v_first := NEW."starts_at" AT TIME ZONE 'UTC';
  END;
  -- Each removal's day, the changed series' period on that day (or the one before) and that period's
  -- wall-clock start: the removal moves there when it is on the same day, later than the first. Of two
  -- removals on one day (one left over from an earlier start), one moves: the one already there, else the
  -- deleted one; the other is dropped, so no two land on one instant.
  WITH placed AS (
    SELECT x."occurs_at" AS was, x."kind", p.k, p.wall, (p.k >= 1 AND p.wall::date IS NOT DISTINCT FROM d.day) AS fits
    FROM "event_exceptions" x
    CROSS JOIN LATERAL (SELECT (x."occurs_at" AT TIME ZONE v_zone)::date AS day) d
    CROSS JOIN LATERAL (SELECT series_period_at(v_first, NEW."recurring", d.day + (v_first - date_trunc('day', v_first))) AS k) k
    CROSS JOIN LATERAL (SELECT k.k, series_period_wall(v_first, NEW."recurring", k.k) AS wall) p
    WHERE x."account_id" = NEW."account_id" AND x."event_id" = NEW."id"
  ), moved AS (
    SELECT was, wall, fits AND row_number() OVER (PARTITION BY fits, wall
      ORDER BY (was = wall_clock_instant(wall, v_zone)) DESC, ("kind" = 'deleted') DESC, was) = 1 AS kept
    FROM placed
  ), dropped AS (
    DELETE FROM "event_exceptions" x USING moved m
    WHERE x."account_id" = NEW."account_id" AND x."event_id" = NEW."id" AND x."occurs_at" = m.was AND NOT m.kept
  )
  UPDATE "event_exceptions" x SET "occurs_at" = wall_clock_instant(m.wall, v_zone)
  FROM moved m
  WHERE x."account_id" = NEW."account_id" AND x."event_id" = NEW."id" AND x."occurs_at" = m.was AND m.kept
    AND x."occurs_at" <> wall_clock_instant(m.wall, v_zone);
  RETURN NULL;
END $$;

CREATE TRIGGER "events_exceptions_after_series_change" AFTER UPDATE OF "starts_at", "recurring" ON "events" FOR EACH ROW
  WHEN (OLD."recurring" <> '' AND (OLD."starts_at" IS DISTINCT FROM NEW."starts_at" OR OLD."recurring" IS DISTINCT FROM NEW."recurring"))
  EXECUTE FUNCTION "events_move_exceptions"();

-- Removals left over from before this migration by an earlier change of their series' start or rule
-- name no occurrence: they never removed anything, yet showed with Restore and went into the published
-- feed as EXDATEs matching nothing. They are deleted (not moved: moving one would now cancel a class
-- that has been taking place).
DELETE FROM "event_exceptions" x
USING "events" e, "accounts" a
WHERE e."id" = x."event_id" AND e."account_id" = x."account_id" AND a."id" = e."account_id"
  AND NOT EXISTS (
    SELECT 1
    FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = a."timezone") THEN a."timezone" ELSE 'UTC' END AS zone) z
    CROSS JOIN LATERAL (SELECT e."starts_at" AT TIME ZONE z.zone AS first) f
    CROSS JOIN LATERAL (SELECT series_period_at(f.first, e."recurring", x."occurs_at" AT TIME ZONE z.zone) AS k) k
    WHERE e."recurring" <> '' AND k.k >= 1
      AND wall_clock_instant(series_period_wall(f.first, e."recurring", k.k), z.zone) = x."occurs_at");
