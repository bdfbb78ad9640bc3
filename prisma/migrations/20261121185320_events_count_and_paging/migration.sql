-- DropIndex
DROP INDEX "events_account_id_starts_at_idx";

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "event_count" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "events_account_id_starts_at_id_idx" ON "events"("account_id", "starts_at", "id");

-- The count is kept by the database itself, so every writer (webhook, dashboard, CSV import, raw SQL)
-- keeps it exact in the same transaction as the insert or delete. The webhook's plan-limit check reads
-- it instead of counting up to 100,000 rows per request.
CREATE FUNCTION "events_maintain_account_count"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "accounts" SET "event_count" = "event_count" + 1 WHERE "id" = NEW."account_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "accounts" SET "event_count" = "event_count" - 1 WHERE "id" = OLD."account_id";
  ELSIF NEW."account_id" IS DISTINCT FROM OLD."account_id" THEN
    UPDATE "accounts" SET "event_count" = "event_count" - 1 WHERE "id" = OLD."account_id";
    UPDATE "accounts" SET "event_count" = "event_count" + 1 WHERE "id" = NEW."account_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "events_account_count_insert_delete"
AFTER INSERT OR DELETE ON "events"
FOR EACH ROW EXECUTE FUNCTION "events_maintain_account_count"();

CREATE TRIGGER "events_account_count_move"
AFTER UPDATE OF "account_id" ON "events"
FOR EACH ROW EXECUTE FUNCTION "events_maintain_account_count"();

UPDATE "accounts" SET "event_count" = (SELECT count(*) FROM "events" WHERE "events"."account_id" = "accounts"."id");
