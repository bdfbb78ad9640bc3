-- CreateTable
CREATE TABLE "event_words" (
    "account_id" UUID NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "event_words_pkey" PRIMARY KEY ("account_id","word")
);

-- CreateIndex
CREATE INDEX "event_words_word_trgm_idx" ON "event_words" USING GIN ("word" gin_trgm_ops);

-- Every writer of events (webhook, dashboard, CSV import) adds the words of what it wrote, in the same
-- statement. Statement-level with a transition table: one INSERT per statement, not per row. Words are
-- inserted in a fixed order so two writers adding the same new words cannot deadlock, and an existing
-- word costs no lock (ON CONFLICT DO NOTHING). Numbers are left out: a typo in "2026" is not one to correct.
CREATE FUNCTION "event_words_collect"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "event_words" ("account_id", "word")
  SELECT DISTINCT n."account_id", w
  FROM new_rows n, regexp_split_to_table(lower(n."title" || ' ' || n."location"), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '[[:digit:]]'
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "events_words_after_insert" AFTER INSERT ON "events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "event_words_collect"();
-- An update adds words only when it changes a title or location. The webhook's upserts never do (both
-- are part of an event's identity), so they skip the trigger at the cost of one comparison per row.
CREATE FUNCTION "event_words_collect_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "event_words" ("account_id", "word")
  SELECT DISTINCT NEW."account_id", w
  FROM regexp_split_to_table(lower(NEW."title" || ' ' || NEW."location"), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '[[:digit:]]'
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "events_words_after_update" AFTER UPDATE OF "title", "location" ON "events" FOR EACH ROW
  WHEN (OLD."title" IS DISTINCT FROM NEW."title" OR OLD."location" IS DISTINCT FROM NEW."location")
  EXECUTE FUNCTION "event_words_collect_row"();

INSERT INTO "event_words" ("account_id", "word")
SELECT DISTINCT e."account_id", w
FROM "events" e, regexp_split_to_table(lower(e."title" || ' ' || e."location"), '[^[:alnum:]]+') AS w
WHERE length(w) BETWEEN 3 AND 40 AND w !~ '[[:digit:]]'
ON CONFLICT DO NOTHING;
