-- webhook_subscriptions' unique key on id alone served only outbound_deliveries' old foreign key by id;
-- that foreign key is (account_id, subscription_id) since the outbound_daily_partitions migration, so the
-- subscription's one key is its primary key (account_id, id) (docs/scaling.md, "Citus (on paper)").
DROP INDEX "webhook_subscriptions_id_key";
