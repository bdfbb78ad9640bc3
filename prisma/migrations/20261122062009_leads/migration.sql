-- CreateTable
CREATE TABLE "leads" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "company" TEXT,
    "source" TEXT,
    "stage" TEXT NOT NULL,
    "notes" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "conversation_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stage_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pipeline_stages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pipeline_stages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "api_key_id" UUID NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "headers" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("api_key_id","key")
);

-- CreateIndex
CREATE INDEX "leads_account_id_created_at_id_idx" ON "leads"("account_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "leads_account_id_stage_created_at_id_idx" ON "leads"("account_id", "stage", "created_at", "id");

-- CreateIndex
CREATE INDEX "leads_account_id_updated_at_idx" ON "leads"("account_id", "updated_at");

-- The search `q` over name, email and company: one trigram index on one expression, so a search is one
-- index scan. lib/leads/read.ts must use exactly this expression for the planner to match it.
CREATE INDEX "leads_search_trgm_idx" ON "leads" USING GIN (
  (coalesce("name", '') || E'\n' || coalesce("email", '') || E'\n' || coalesce("company", '')) gin_trgm_ops
);

-- CreateIndex
CREATE UNIQUE INDEX "leads_account_id_email_key" ON "leads"("account_id", "email") WHERE (email IS NOT NULL);

-- CreateIndex
CREATE INDEX "pipeline_stages_account_id_position_idx" ON "pipeline_stages"("account_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "pipeline_stages_account_id_key_key" ON "pipeline_stages"("account_id", "key");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pipeline_stages" ADD CONSTRAINT "pipeline_stages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every existing account gets the default pipeline that sign-up gives new accounts.
INSERT INTO "pipeline_stages" ("account_id", "key", "label", "position")
SELECT a."id", s."key", s."label", s."position"
FROM "accounts" a
CROSS JOIN (VALUES ('new', 'New', 0), ('contacted', 'Contacted', 1), ('qualified', 'Qualified', 2), ('won', 'Won', 3), ('lost', 'Lost', 4))
  AS s("key", "label", "position");
