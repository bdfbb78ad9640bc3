-- The primary key of events names the event first and its account second. With account_id leading it,
-- a generic plan of the webhook's identity lookup (prepared once per connection) made while the table was
-- empty could pick the primary key for its account_id alone and then walk every event of the account on
-- each upsert; id first leaves that lookup only indexes that narrow to the event's start. The key still
-- holds account_id (a distributed table's keys must), and the composite foreign key of event_exceptions
-- is satisfied by it whatever the column order.
ALTER TABLE "event_exceptions" DROP CONSTRAINT "event_exceptions_account_id_event_id_fkey";
ALTER TABLE "events" DROP CONSTRAINT "events_pkey",
  ADD CONSTRAINT "events_pkey" PRIMARY KEY ("id", "account_id");
ALTER TABLE "event_exceptions" ADD CONSTRAINT "event_exceptions_account_id_event_id_fkey"
  FOREIGN KEY ("account_id", "event_id") REFERENCES "events"("account_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
