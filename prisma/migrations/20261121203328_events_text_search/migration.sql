-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "events_title_trgm_idx" ON "events" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "events_location_trgm_idx" ON "events" USING GIN ("location" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "events_description_trgm_idx" ON "events" USING GIN ("description" gin_trgm_ops);
