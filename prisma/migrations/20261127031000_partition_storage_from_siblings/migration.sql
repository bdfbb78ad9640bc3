-- A new day partition takes the storage parameters (fillfactor, autovacuum settings) of its newest
-- sibling. A partitioned parent cannot hold them and partitions do not inherit them, so without this only
-- the days that existed when an operator tuned a log would keep the tuning. Every path that creates days
-- (migrations, start-up, the worker's hourly job, the retention sweep) goes through this function.

CREATE OR REPLACE FUNCTION create_daily_partitions(parent regclass, first_day date, last_day date)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day date := first_day;
  created integer := 0;
  schema_name text;
  options text[];
BEGIN
  SELECT n.nspname INTO schema_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
  SELECT c.reloptions INTO options FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent ORDER BY c.relname DESC LIMIT 1;
  WHILE day <= last_day LOOP
    IF to_regclass(format('%I.%I', schema_name, daily_partition_name(parent, day))) IS NULL THEN
      BEGIN
        EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
          schema_name, daily_partition_name(parent, day), parent,
          (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
        IF options IS NOT NULL THEN
          EXECUTE format('ALTER TABLE %I.%I SET (%s)', schema_name, daily_partition_name(parent, day),
            array_to_string(options, ', '));
        END IF;
        created := created + 1;
      EXCEPTION WHEN duplicate_table OR unique_violation THEN
        NULL;
      END;
    END IF;
    day := day + 1;
  END LOOP;
  RETURN created;
END;
$$;

-- The deliveries keep the fillfactor the outbound_deliveries_fillfactor migration gave the table before
-- it was partitioned: a delivery is written, then updated when its attempt is recorded, and half-full
-- pages keep the updated row on its page (a HOT update, no new index entries).
DO $$
DECLARE
  day regclass;
BEGIN
  FOR day IN SELECT i.inhrelid::regclass FROM pg_inherits i WHERE i.inhparent = 'outbound_deliveries'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 50)', day);
  END LOOP;
END;
$$;
