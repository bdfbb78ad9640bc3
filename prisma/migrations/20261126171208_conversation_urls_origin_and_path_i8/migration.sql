-- A conversation keeps only the origin and path of the page the chat was opened on and of that page's
-- referrer (docs/chat-widget.md, "Session data"); the query and fragment stored before are removed, as
-- they may carry tokens or personal data. The app stored these values as the URL parser serialised
-- them, so a "?" or "#" in them can only start the query or the fragment.
UPDATE "conversations" SET
  "page_url" = regexp_replace("page_url", '[?#].*$', ''),
  "referrer" = regexp_replace("referrer", '[?#].*$', '')
WHERE "page_url" ~ '[?#]' OR "referrer" ~ '[?#]';
