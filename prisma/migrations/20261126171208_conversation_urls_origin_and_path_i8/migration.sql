-- A conversation keeps only the origin and path of the page the chat was opened on and of that page's
-- referrer (docs/chat-widget.md, "Session data"); the query and fragment stored before are removed, as
-- they may carry tokens or personal data. The app stored these values as the URL parser serialised
-- them, so a "?" or "#" in them can only start the query or the fragment.
UPDATE "conversations" SET
  "page_url" = regexp_replace("page_url", '[?#].*$', ''),
  "referrer" = regexp_replace("referrer", '[?#].*$', '')
WHERE "page_url" ~ '[?#]' OR "referrer" ~ '[?#]';

-- The same for the conversations that stored notifications carry (kept 30 days, listed by
-- GET /api/public/webhook-events and sent again by "Replay since…").
UPDATE "outbound_messages" SET "payload" = "payload"
  || jsonb_build_object('data', ("payload" -> 'data')
    || CASE WHEN jsonb_typeof("payload" #> '{data,page_url}') = 'string'
         THEN jsonb_build_object('page_url', regexp_replace("payload" #>> '{data,page_url}', '[?#].*$', '')) ELSE '{}'::jsonb END
    || CASE WHEN jsonb_typeof("payload" #> '{data,referrer}') = 'string'
         THEN jsonb_build_object('referrer', regexp_replace("payload" #>> '{data,referrer}', '[?#].*$', '')) ELSE '{}'::jsonb END)
WHERE "type" LIKE 'conversation.%' AND jsonb_typeof("payload" -> 'data') = 'object'
  AND ("payload" #>> '{data,page_url}' ~ '[?#]' OR "payload" #>> '{data,referrer}' ~ '[?#]');
