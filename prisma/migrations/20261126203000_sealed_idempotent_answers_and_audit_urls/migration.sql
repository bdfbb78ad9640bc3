-- Answers stored for Idempotency-Key replays that carry a secret are now stored sealed (AES-256-GCM under
-- APP_ENCRYPTION_KEY, docs/outbound-webhooks.md, "Secrets"); `sealed` says which. A constant default
-- adds the column without rewriting the table.
ALTER TABLE "idempotency_keys" ADD COLUMN "sealed" BOOLEAN NOT NULL DEFAULT false;

-- Subscribe answers stored before in plain text held a signing secret: they go. A retry with such a key
-- within its 24 hours subscribes again instead of replaying (the app cannot encrypt in SQL).
DELETE FROM "idempotency_keys" WHERE NOT "sealed" AND strpos("body", '"secret":"whsec_') > 0;

-- Audit entries name a subscription by its URL's origin and path only (a query often carries the
-- receiver's token). Stored URLs were serialised by the URL parser without credentials or fragment, so a
-- "?" can only start the query.
UPDATE "audit_log" SET "target_label" = regexp_replace("target_label", '\?.*$', '')
WHERE "target_type" = 'webhook_subscription' AND strpos("target_label", '?') > 0;

-- jsonb_set is strict: a missing "from" or "to" keeps its value (null) instead of nulling the metadata.
UPDATE "audit_log" SET "metadata" = jsonb_set(
    jsonb_set("metadata", '{url,from}', COALESCE(to_jsonb(regexp_replace("metadata" #>> '{url,from}', '\?.*$', '')), 'null'::jsonb)),
    '{url,to}', COALESCE(to_jsonb(regexp_replace("metadata" #>> '{url,to}', '\?.*$', '')), 'null'::jsonb))
WHERE "target_type" = 'webhook_subscription' AND "action" = 'webhook_subscription.updated'
  AND jsonb_typeof("metadata" -> 'url') = 'object'
  AND ("metadata" #>> '{url,from}' LIKE '%?%' OR "metadata" #>> '{url,to}' LIKE '%?%');
