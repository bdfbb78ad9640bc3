-- accounts.event_count was kept by row-level triggers, which update the account row once per event:
-- a bulk insert of 100,000 events (CSV import) then updates one row 100,000 times in one transaction,
-- which is quadratic. Statement-level triggers with transition tables update each account once per
-- statement, by the number of rows the statement inserted or deleted.
DROP TRIGGER IF EXISTS "events_account_count_insert_delete" ON "events";
DROP TRIGGER IF EXISTS "events_account_count_move" ON "events";
DROP FUNCTION IF EXISTS "events_maintain_account_count"();

CREATE FUNCTION "events_count_inserted"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "accounts" AS a SET "event_count" = a."event_count" + c.n
  FROM (SELECT "account_id", count(*) AS n FROM inserted GROUP BY "account_id") AS c
  WHERE a."id" = c."account_id";
  RETURN NULL;
END;
$$;

CREATE FUNCTION "events_count_deleted"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "accounts" AS a SET "event_count" = a."event_count" - c.n
  FROM (SELECT "account_id", count(*) AS n FROM deleted GROUP BY "account_id") AS c
  WHERE a."id" = c."account_id";
  RETURN NULL;
END;
$$;

-- Only the rows an INSERT … ON CONFLICT actually inserted are in its NEW TABLE; updated rows are not.
CREATE TRIGGER "events_count_after_insert"
AFTER INSERT ON "events" REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION "events_count_inserted"();

CREATE TRIGGER "events_count_after_delete"
AFTER DELETE ON "events" REFERENCING OLD TABLE AS deleted
FOR EACH STATEMENT EXECUTE FUNCTION "events_count_deleted"();

-- An event never moves to another account; refusing it keeps the counts exact without an UPDATE trigger
-- on the webhook's hot path (this one fires only when a statement sets account_id).
CREATE FUNCTION "events_forbid_account_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."account_id" IS DISTINCT FROM OLD."account_id" THEN
    RAISE EXCEPTION 'events cannot move between accounts';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "events_account_id_immutable"
BEFORE UPDATE OF "account_id" ON "events"
FOR EACH ROW EXECUTE FUNCTION "events_forbid_account_change"();

UPDATE "accounts" SET "event_count" = (SELECT count(*) FROM "events" WHERE "events"."account_id" = "accounts"."id");
