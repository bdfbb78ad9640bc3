-- Tenant keys with the account (docs/scaling.md, "Citus (on paper)"): every primary key, unique key and
-- foreign key between tenant tables includes account_id, the column tenant data would be distributed by.
-- The log tables (webhook and outbound logs, replays, idempotency records) are converted by their own
-- migrations.
--
-- Values the product looks up without knowing the account (a webhook source's public id, an API key's
-- hash, a published calendar's token hash, a chat widget's id) keep a plain index of their own: they are
-- random and unguessable (newPublicId, SHA-256 of 32 random bytes), so a global unique key adds nothing to
-- correctness, and the lookups refuse an ambiguous answer (LIMIT 2, two rows count as none).

-- Foreign keys that depend on the primary keys replaced below; recreated as composite ones at the end.
ALTER TABLE "events" DROP CONSTRAINT "events_feed_id_fkey";
ALTER TABLE "event_exceptions" DROP CONSTRAINT "event_exceptions_event_id_fkey";
ALTER TABLE "calendar_feed_syncs" DROP CONSTRAINT "calendar_feed_syncs_feed_id_fkey";
ALTER TABLE "conversation_messages" DROP CONSTRAINT "conversation_messages_conversation_id_fkey";
ALTER TABLE "outbound_attempt_hours" DROP CONSTRAINT "outbound_attempt_hours_subscription_id_fkey";

-- memberships: the account's index is the primary key's leading column now.
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_pkey",
  ADD CONSTRAINT "memberships_pkey" PRIMARY KEY ("account_id", "id");
DROP INDEX "memberships_account_id_idx";

-- webhook_sources: the webhook finds its source by public_id alone (lib/events-webhook/ingest-sql.ts).
ALTER TABLE "webhook_sources" DROP CONSTRAINT "webhook_sources_pkey",
  ADD CONSTRAINT "webhook_sources_pkey" PRIMARY KEY ("account_id", "id");
DROP INDEX "webhook_sources_public_id_key";
CREATE UNIQUE INDEX "webhook_sources_account_id_public_id_key" ON "webhook_sources"("account_id", "public_id");
CREATE INDEX "webhook_sources_public_id_idx" ON "webhook_sources"("public_id");

ALTER TABLE "events" DROP CONSTRAINT "events_pkey",
  ADD CONSTRAINT "events_pkey" PRIMARY KEY ("account_id", "id");
DROP INDEX "events_feed_key";
CREATE UNIQUE INDEX "events_feed_key" ON "events"("account_id", "feed_id", "feed_key");

-- published_calendars: one row per account already; the feed route finds it by token hash alone.
DROP INDEX "published_calendars_token_hash_key";
CREATE INDEX "published_calendars_token_hash_idx" ON "published_calendars"("token_hash");

ALTER TABLE "calendar_feeds" DROP CONSTRAINT "calendar_feeds_pkey",
  ADD CONSTRAINT "calendar_feeds_pkey" PRIMARY KEY ("account_id", "id");

ALTER TABLE "calendar_feed_syncs" DROP CONSTRAINT "calendar_feed_syncs_pkey",
  ADD CONSTRAINT "calendar_feed_syncs_pkey" PRIMARY KEY ("account_id", "id");

-- api_keys: bearer authentication finds the key by its hash alone (lib/api-keys/authenticate.ts).
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_pkey",
  ADD CONSTRAINT "api_keys_pkey" PRIMARY KEY ("account_id", "id");
DROP INDEX "api_keys_key_hash_key";
CREATE UNIQUE INDEX "api_keys_account_id_key_hash_key" ON "api_keys"("account_id", "key_hash");
CREATE INDEX "api_keys_key_hash_idx" ON "api_keys"("key_hash");

ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey",
  ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY ("account_id", "id");

ALTER TABLE "leads" DROP CONSTRAINT "leads_pkey",
  ADD CONSTRAINT "leads_pkey" PRIMARY KEY ("account_id", "id");

ALTER TABLE "pipeline_stages" DROP CONSTRAINT "pipeline_stages_pkey",
  ADD CONSTRAINT "pipeline_stages_pkey" PRIMARY KEY ("account_id", "id");

ALTER TABLE "account_notices" DROP CONSTRAINT "account_notices_pkey",
  ADD CONSTRAINT "account_notices_pkey" PRIMARY KEY ("account_id", "id");

-- webhook_subscriptions: outbound_deliveries still references a subscription by id alone, so a unique
-- key on id stays until that table carries account_id and its foreign key becomes composite.
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_pkey" CASCADE;
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("account_id", "id");
CREATE UNIQUE INDEX "webhook_subscriptions_id_key" ON "webhook_subscriptions"("id");
ALTER TABLE "outbound_deliveries" ADD CONSTRAINT "outbound_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id")
  REFERENCES "webhook_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- chat_widgets: a visitor's requests name the widget by id alone (lib/conversations/widget.ts).
ALTER TABLE "chat_widgets" DROP CONSTRAINT "chat_widgets_pkey",
  ADD CONSTRAINT "chat_widgets_pkey" PRIMARY KEY ("account_id", "id");
CREATE INDEX "chat_widgets_id_idx" ON "chat_widgets"("id");

-- conversations: a visitor's conversation is found through its widget, which gives the account.
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_pkey",
  ADD CONSTRAINT "conversations_pkey" PRIMARY KEY ("account_id", "id");

ALTER TABLE "conversation_messages" DROP CONSTRAINT "conversation_messages_pkey",
  ADD CONSTRAINT "conversation_messages_pkey" PRIMARY KEY ("account_id", "id");
DROP INDEX "conversation_messages_conversation_id_seq_key";
CREATE UNIQUE INDEX "conversation_messages_account_id_conversation_id_seq_key"
  ON "conversation_messages"("account_id", "conversation_id", "seq");

-- Composite foreign keys. A feed's removal leaves its events in place with no feed (SET NULL of feed_id
-- only: the event keeps its account).
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_feed_id_fkey" FOREIGN KEY ("account_id", "feed_id")
  REFERENCES "calendar_feeds"("account_id", "id") ON DELETE SET NULL ("feed_id") ON UPDATE CASCADE;
ALTER TABLE "event_exceptions" ADD CONSTRAINT "event_exceptions_account_id_event_id_fkey"
  FOREIGN KEY ("account_id", "event_id") REFERENCES "events"("account_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "calendar_feed_syncs" ADD CONSTRAINT "calendar_feed_syncs_account_id_feed_id_fkey"
  FOREIGN KEY ("account_id", "feed_id") REFERENCES "calendar_feeds"("account_id", "id")
  ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_account_id_conversation_id_fkey"
  FOREIGN KEY ("account_id", "conversation_id") REFERENCES "conversations"("account_id", "id")
  ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "outbound_attempt_hours" ADD CONSTRAINT "outbound_attempt_hours_account_id_subscription_id_fkey"
  FOREIGN KEY ("account_id", "subscription_id") REFERENCES "webhook_subscriptions"("account_id", "id")
  ON DELETE CASCADE ON UPDATE CASCADE;
