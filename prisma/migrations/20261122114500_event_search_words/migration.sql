-- The assistant's topic search (docs/assistant.md): every word of an event's title, location and
-- description, lower-cased, with each of its prefixes from 3 letters on ("pottery" → pot, pott, …,
-- pottery), so "a word starting with X" is one GIN lookup of X instead of a regular expression run
-- over three text columns of every candidate row. Words longer than 40 letters keep their first 40
-- (longer topic words are ignored anyway). A prefix two words share is listed twice, which costs
-- nothing (GIN keeps each key once).
ALTER TABLE "events" ADD COLUMN "search_words" TEXT[];

-- Kept by a trigger, so every writer (webhook, dashboard, CSV import) keeps it current without knowing
-- it exists. (A generated column would do the same, but Prisma cannot describe one.) The words are
-- to_tsvector's ('simple': split and lower-cased, nothing dropped or stemmed), and the prefixes are
-- built in a plain loop: no SQL statement runs per row, which keeps the trigger at a few microseconds
-- per event write (a SELECT over unnest/generate_series here cost five times as much).
CREATE FUNCTION "events_set_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  word TEXT;
  words TEXT[] := '{}';
BEGIN
  FOREACH word IN ARRAY tsvector_to_array(to_tsvector('simple', NEW."title" || ' ' || NEW."location" || ' ' || NEW."description")) LOOP
    FOR n IN 3..least(length(word), 40) LOOP
      words := words || left(word, n);
    END LOOP;
  END LOOP;
  NEW."search_words" := words;
  RETURN NEW;
END $$;

CREATE TRIGGER "events_search_words_before_insert" BEFORE INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION "events_set_search_words"();

-- Existing events get their words through the same trigger, fired by a no-op update of the title;
-- the trigger then only fires when one of the three texts really changes, which webhook upserts of an
-- unchanged event never do.
CREATE TRIGGER "events_search_words_before_update" BEFORE UPDATE OF "title", "location", "description" ON "events"
  FOR EACH ROW EXECUTE FUNCTION "events_set_search_words"();
UPDATE "events" SET "title" = "title";
DROP TRIGGER "events_search_words_before_update" ON "events";
CREATE TRIGGER "events_search_words_before_update" BEFORE UPDATE OF "title", "location", "description" ON "events" FOR EACH ROW
  WHEN (OLD."title" IS DISTINCT FROM NEW."title" OR OLD."location" IS DISTINCT FROM NEW."location" OR OLD."description" IS DISTINCT FROM NEW."description")
  EXECUTE FUNCTION "events_set_search_words"();

CREATE INDEX "events_search_words_idx" ON "events" USING GIN ("search_words");

-- Events longer than a day: the assistant finds those still running among them, and walks only the
-- last day of all other events (an event that started earlier and still runs is longer than a day).
CREATE INDEX "events_long_running_idx" ON "events"("account_id", "starts_at") WHERE ((ends_at - starts_at) > '1 day'::interval);
