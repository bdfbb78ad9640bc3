-- Day partitions for the time-partitioned logs (docs/scaling.md, "Time-partitioned logs").
-- A log table is partitioned BY RANGE on its time column; each day is one partition named
-- <table>_pYYYYMMDD covering [day 00:00 UTC, next day 00:00 UTC). Retention detaches and drops whole
-- partitions (lib/platform/db/partitions.ts), so no row is ever deleted by a sweep and nothing is left
-- for vacuum. Bounds are written in UTC whatever the session's TimeZone is.

CREATE OR REPLACE FUNCTION daily_partition_name(parent regclass, day date) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT (SELECT c.relname FROM pg_class c WHERE c.oid = parent) || '_p' || to_char(day, 'YYYYMMDD')
$$;

-- Creates the missing day partitions of `parent` from first_day to last_day (both included).
-- Returns how many it created. Safe to run concurrently: a partition another session created in the
-- meantime is skipped (duplicate_table).
CREATE OR REPLACE FUNCTION create_daily_partitions(parent regclass, first_day date, last_day date)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day date := first_day;
  created integer := 0;
  schema_name text;
BEGIN
  SELECT n.nspname INTO schema_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
  WHILE day <= last_day LOOP
    IF to_regclass(format('%I.%I', schema_name, daily_partition_name(parent, day))) IS NULL THEN
      BEGIN
        EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
          schema_name, daily_partition_name(parent, day), parent,
          (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
        created := created + 1;
      EXCEPTION WHEN duplicate_table THEN
        NULL;
      END;
    END IF;
    day := day + 1;
  END LOOP;
  RETURN created;
END;
$$;

-- The day partitions of `parent` whose whole day ends at or before `cutoff`, oldest first, read from
-- the partition bounds themselves (not the names), so a partition created by hand is judged the same.
CREATE OR REPLACE FUNCTION expired_daily_partitions(parent regclass, cutoff timestamptz)
RETURNS TABLE (partition regclass, upper_bound timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT p.partition, p.upper_bound FROM (
    SELECT i.inhrelid::regclass AS partition,
           (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz AS upper_bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent
  ) p
  WHERE p.upper_bound <= cutoff
  ORDER BY p.upper_bound
$$;
