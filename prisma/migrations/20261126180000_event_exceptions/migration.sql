-- Occurrences removed one by one from recurring series (cancel / delete of a later occurrence).
CREATE TABLE "event_exceptions" (
    "account_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "occurs_at" TIMESTAMPTZ(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_exceptions_pkey" PRIMARY KEY ("account_id","occurs_at","event_id")
);

CREATE INDEX "event_exceptions_event_id_occurs_at_idx" ON "event_exceptions"("event_id", "occurs_at");

CREATE INDEX "events_series_idx" ON "events"("account_id", "starts_at") WHERE (recurring <> '');

-- The topic words of series alone: the assistant reads a topic's series apart from its one-off events.
CREATE INDEX "events_series_words_idx" ON "events" USING GIN ("search_words") WHERE (recurring <> '');

ALTER TABLE "event_exceptions" ADD CONSTRAINT "event_exceptions_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The delivery log names the occurrence a cancel or delete acted on.
ALTER TABLE "webhook_deliveries" ADD COLUMN "occurrence_at" TIMESTAMPTZ(3);
