-- Event notifications carry `next_occurrence_at` (docs/outbound-webhooks.md): the start of the event's
-- occurrence that has not ended when the change is written, or null (none left, or cancelled). The
-- definition is lib/events/occurrences.ts (nextOccurrence); these functions repeat it for the writers'
-- statements, so a notification is built in the statement that makes the change, and a test
-- (tests/integration/events/next-occurrence-sql.test.ts) compares them over random series and zones.

-- The instant a wall-clock time names in the zone, resolved as RFC 5545 3.3.5 and wallClockInstant in
-- lib/format/zoned-time.ts: a time that occurs twice is its first occurrence; a skipped time is read
-- with the offset before the gap. The offsets a day either side are the only candidates.
CREATE FUNCTION "wall_clock_instant"(p_wall TIMESTAMP, p_zone TEXT) RETURNS TIMESTAMPTZ
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  v_before INTERVAL := ((p_wall - interval '1 day') AT TIME ZONE 'UTC') AT TIME ZONE p_zone - (p_wall - interval '1 day');
  v_after INTERVAL := ((p_wall + interval '1 day') AT TIME ZONE 'UTC') AT TIME ZONE p_zone - (p_wall + interval '1 day');
  v_early TIMESTAMPTZ := (p_wall - v_before) AT TIME ZONE 'UTC';
  v_late TIMESTAMPTZ := (p_wall - v_after) AT TIME ZONE 'UTC';
  v_found TIMESTAMPTZ;
BEGIN
  IF v_early AT TIME ZONE p_zone = p_wall THEN v_found := v_early; END IF;
  IF v_late AT TIME ZONE p_zone = p_wall AND (v_found IS NULL OR v_late < v_found) THEN v_found := v_late; END IF;
  RETURN COALESCE(v_found, v_early);
END $$;

-- Period p_k's wall-clock start of a series whose first occurrence shows p_first on the zone's clock
-- (periodWall in lib/events/occurrences.ts), or null when the period has no occurrence (the 31st in a
-- 30-day month, 29 February in a common year) or passes year 9999.
CREATE FUNCTION "series_period_wall"(p_first TIMESTAMP, p_recurring TEXT, p_k INT) RETURNS TIMESTAMP
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  v_month INT;
  v_year INT;
  v_day INT := extract(day FROM p_first)::int;
BEGIN
  IF p_recurring IN ('daily', 'weekly') THEN
    RETURN p_first + make_interval(days => p_k * CASE p_recurring WHEN 'daily' THEN 1 ELSE 7 END);
  END IF;
  v_month := extract(month FROM p_first)::int - 1 + CASE p_recurring WHEN 'monthly' THEN p_k ELSE 12 * p_k END;
  v_year := extract(year FROM p_first)::int + floor(v_month / 12.0)::int;
  v_month := v_month - 12 * floor(v_month / 12.0)::int + 1;
  IF v_year > 9999 OR v_day > extract(day FROM make_date(v_year, v_month, 1) + interval '1 month - 1 day')::int THEN RETURN NULL; END IF;
  RETURN make_date(v_year, v_month, v_day) + (p_first - date_trunc('day', p_first));
END $$;

-- The number of the period whose day holds p_wall or, between occurrences, the one before it
-- (periodAtOrBefore in lib/events/occurrences.ts).
CREATE FUNCTION "series_period_at"(p_first TIMESTAMP, p_recurring TEXT, p_wall TIMESTAMP) RETURNS INT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_recurring
    WHEN 'daily' THEN p_wall::date - p_first::date
    WHEN 'weekly' THEN floor((p_wall::date - p_first::date) / 7.0)::int
    WHEN 'monthly' THEN (extract(year FROM p_wall)::int - extract(year FROM p_first)::int) * 12
      + extract(month FROM p_wall)::int - extract(month FROM p_first)::int
    ELSE extract(year FROM p_wall)::int - extract(year FROM p_first)::int END
$$;

-- The start of the first occurrence that has not ended at p_at (it may be running), exceptions left out,
-- or null. p_removed / p_restored name an occurrence the calling statement itself removes or restores:
-- its own change to event_exceptions is not visible to it. Periods are worked out from the first one by
-- arithmetic, starting near p_at, so the work does not grow with the series' age. One-off events never
-- read the account's zone (the webhook's hot path).
CREATE FUNCTION "event_next_occurrence_at"(e events, p_at TIMESTAMPTZ, p_removed TIMESTAMPTZ DEFAULT NULL, p_restored TIMESTAMPTZ DEFAULT NULL)
RETURNS TIMESTAMPTZ LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_zone TEXT;
  v_first TIMESTAMP;
  v_duration INTERVAL := e.ends_at - e.starts_at;
  v_k INT;
  v_wall TIMESTAMP;
  v_start TIMESTAMPTZ;
BEGIN
  IF e.status = 'cancelled' THEN RETURN NULL; END IF;
  IF e.recurring = '' THEN
    RETURN CASE WHEN COALESCE(e.ends_at > p_at, e.starts_at >= p_at) THEN e.starts_at END;
  END IF;
  v_zone := COALESCE((SELECT timezone FROM accounts WHERE id = e.account_id), 'UTC');
  BEGIN
    v_first := e.starts_at AT TIME ZONE v_zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    -- A name this server's zone database does not know: UTC, as series_phase_in_zone does.
    v_zone := 'UTC';
    v_first := e.starts_at AT TIME ZONE 'UTC';
  END;
  -- The period whose day holds the wall clock a duration and a day before p_at, less one (firstPeriodNear).
  v_k := GREATEST(series_period_at(v_first, e.recurring, (p_at - COALESCE(v_duration, interval '0') - interval '1 day') AT TIME ZONE v_zone) - 1, 0);
  LOOP
    v_wall := series_period_wall(v_first, e.recurring, v_k);
    IF v_wall IS NULL AND (extract(year FROM v_first)::int + v_k / CASE WHEN e.recurring = 'monthly' THEN 12 ELSE 1 END > 9999) THEN
      RETURN NULL;
    END IF;
    IF v_wall IS NOT NULL THEN
      -- Period 0 is the stored start itself, whatever offset its writer used.
      v_start := CASE WHEN v_k = 0 THEN e.starts_at ELSE wall_clock_instant(v_wall, v_zone) END;
      IF v_start > timestamptz '9999-12-31 23:59:59.999+00' THEN RETURN NULL; END IF;
      IF COALESCE(v_start + v_duration > p_at, v_start >= p_at)
        AND v_start IS DISTINCT FROM p_removed
        AND (v_start = p_restored OR NOT EXISTS (
          SELECT 1 FROM event_exceptions x WHERE x.account_id = e.account_id AND x.occurs_at = v_start AND x.event_id = e.id)) THEN
        RETURN v_start;
      END IF;
    END IF;
    v_k := v_k + 1;
  END LOOP;
END $$;

-- The event as notifications carry it, now with next_occurrence_at (UTC), as of the writing statement.
DROP FUNCTION outbound_event_data(events);
CREATE FUNCTION outbound_event_data(e events, p_removed TIMESTAMPTZ DEFAULT NULL, p_restored TIMESTAMPTZ DEFAULT NULL)
RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', e.id, 'title', e.title,
    'starts_at', outbound_local_time(e.starts_at, e.starts_at_offset),
    'ends_at', CASE WHEN e.ends_at IS NULL THEN NULL ELSE outbound_local_time(e.ends_at, e.starts_at_offset) END,
    'description', e.description, 'location', e.location, 'url', e.url, 'price', e.price,
    'recurring', e.recurring, 'status', e.status::text,
    'next_occurrence_at', outbound_iso_time(event_next_occurrence_at(e, statement_timestamp(), p_removed, p_restored)),
    'created_at', outbound_iso_time(e.created_at), 'updated_at', outbound_iso_time(e.updated_at))
$$;

-- A new account zone moves every series' occurrences: each keeps the first one's wall clock in the new
-- zone (the first stays the stored start). A removed occurrence moves with its period, so it still
-- removes the same occurrence; one whose period has no occurrence in the new zone is left as it was.
-- A zone name this server does not know is read as UTC, as series_phase_in_zone does.
CREATE FUNCTION "accounts_move_exceptions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_old TEXT := OLD."timezone";
  v_new TEXT := NEW."timezone";
BEGIN
  BEGIN
    PERFORM now() AT TIME ZONE v_old;
  EXCEPTION WHEN invalid_parameter_value THEN v_old := 'UTC';
  END;
  BEGIN
    PERFORM now() AT TIME ZONE v_new;
  EXCEPTION WHEN invalid_parameter_value THEN v_new := 'UTC';
  END;
  UPDATE "event_exceptions" x SET "occurs_at" = moved.occurs_at
  FROM (
    SELECT x2.event_id, x2.occurs_at AS was, CASE WHEN p.k = 0 THEN e.starts_at ELSE wall_clock_instant(p.wall, v_new) END AS occurs_at
    FROM "event_exceptions" x2 JOIN "events" e ON e.id = x2.event_id
    CROSS JOIN LATERAL (SELECT series_period_at(e.starts_at AT TIME ZONE v_old, e.recurring, x2.occurs_at AT TIME ZONE v_old) AS k) k
    CROSS JOIN LATERAL (SELECT k.k, series_period_wall(e.starts_at AT TIME ZONE v_new, e.recurring, k.k) AS wall) p
    WHERE x2.account_id = NEW."id" AND e.recurring <> '') moved
  WHERE x.account_id = NEW."id" AND x.event_id = moved.event_id AND x.occurs_at = moved.was AND moved.occurs_at IS NOT NULL;
  RETURN NULL;
END $$;

CREATE TRIGGER "accounts_exceptions_after_zone" AFTER UPDATE OF "timezone" ON "accounts" FOR EACH ROW
  WHEN (OLD."timezone" IS DISTINCT FROM NEW."timezone") EXECUTE FUNCTION "accounts_move_exceptions"();
