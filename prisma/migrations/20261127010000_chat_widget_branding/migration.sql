-- Settings → Chat widget: the business name shown at the top of the chat, an optional logo (an https URL)
-- and brand colour (#rrggbb), and a line saying when the team usually answers, shown to a visitor who
-- asks for a person (docs/chat-widget.md, "Branding"). Empty means not set. The checks repeat the
-- settings form's rules (lib/conversations/settings-input.ts) so no other writer can store what the
-- chat page would refuse to show.
ALTER TABLE "chat_widgets"
    ADD COLUMN "business_name" TEXT NOT NULL DEFAULT '',
    ADD COLUMN "logo_url" TEXT NOT NULL DEFAULT '',
    ADD COLUMN "brand_color" TEXT NOT NULL DEFAULT '',
    ADD COLUMN "reply_time" TEXT NOT NULL DEFAULT '',
    ADD CONSTRAINT "chat_widgets_business_name_length" CHECK (char_length("business_name") <= 80),
    ADD CONSTRAINT "chat_widgets_logo_url_https" CHECK ("logo_url" = '' OR ("logo_url" LIKE 'https://%' AND char_length("logo_url") <= 2048)),
    ADD CONSTRAINT "chat_widgets_brand_color_hex" CHECK ("brand_color" ~ '^(#[0-9a-f]{6})?$'),
    ADD CONSTRAINT "chat_widgets_reply_time_length" CHECK (char_length("reply_time") <= 160);

-- The inbox's search (lib/conversations/inbox-search.ts): a visitor's name or email, and what the visitor
-- and the team wrote, by ILIKE '%q%', which these trigram indexes answer without reading every row. The
-- assistant's answers and system lines are left out: they repeat event titles in every conversation, and
-- keeping them out of the index keeps the chat's writes cheap. The search repeats both expressions exactly.
CREATE INDEX "conversations_visitor_search_trgm_idx" ON "conversations" USING GIN (
    (coalesce("visitor_name", '') || E'\n' || coalesce("visitor_email", '')) gin_trgm_ops
);
CREATE INDEX "conversation_messages_text_trgm_idx" ON "conversation_messages" USING GIN ("text" gin_trgm_ops)
    WHERE "author" IN ('visitor', 'agent');
