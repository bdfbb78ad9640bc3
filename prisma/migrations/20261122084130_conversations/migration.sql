-- CreateEnum
CREATE TYPE "ConversationStatus" AS ENUM ('bot', 'handoff_requested', 'handoff_active', 'closed');

-- CreateEnum
CREATE TYPE "MessageAuthor" AS ENUM ('visitor', 'assistant', 'agent', 'system');

-- CreateTable
CREATE TABLE "chat_widgets" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "assistant_name" TEXT NOT NULL DEFAULT 'Assistant',
    "greeting" TEXT NOT NULL DEFAULT 'Hi! Ask me about upcoming events, or talk to a person.',
    "allowed_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_widgets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversations" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "widget_id" TEXT NOT NULL,
    "status" "ConversationStatus" NOT NULL DEFAULT 'bot',
    "visitor_token_hash" BYTEA NOT NULL,
    "lead_id" TEXT,
    "visitor_name" TEXT,
    "visitor_email" TEXT,
    "page_url" TEXT,
    "referrer" TEXT,
    "user_agent" TEXT,
    "locale" TEXT,
    "handoff_requested_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "closed_reason" TEXT,
    "last_message_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_messages" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "author" "MessageAuthor" NOT NULL,
    "author_name" TEXT,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversation_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "chat_widgets_account_id_key" ON "chat_widgets"("account_id");

-- CreateIndex
CREATE INDEX "conversations_account_id_status_updated_at_id_idx" ON "conversations"("account_id", "status", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversations_account_id_updated_at_id_idx" ON "conversations"("account_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversations_open_last_message_idx" ON "conversations"("last_message_at") WHERE (status <> 'closed');

-- CreateIndex
CREATE UNIQUE INDEX "conversation_messages_conversation_id_seq_key" ON "conversation_messages"("conversation_id", "seq");

-- AddForeignKey
ALTER TABLE "chat_widgets" ADD CONSTRAINT "chat_widgets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
