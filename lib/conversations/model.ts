/*
 * Conversations as the domain hands them out, and their public API representation (docs/conversations.md).
 * Pure: the widget, the inbox, the public API and the notifications all serialize through here, so a
 * conversation looks the same wherever it appears.
 */

import { fail, type Failure } from "@/lib/platform/result";

export const CONVERSATION_STATUSES = ["bot", "handoff_requested", "handoff_active", "closed"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const MESSAGE_AUTHORS = ["visitor", "assistant", "agent", "system"] as const;
export type MessageAuthor = (typeof MESSAGE_AUTHORS)[number];

/** A person can answer: the visitor asked for one, or one already replied. */
export const isInHandoff = (status: ConversationStatus): boolean =>
  status === "handoff_requested" || status === "handoff_active";

/** Without a message for this long an open conversation is closed by the sweep. */
export const IDLE_CLOSE_MS = 24 * 60 * 60 * 1000;

export type Conversation = {
  id: string;
  widgetId: string;
  status: ConversationStatus;
  leadId: string | null;
  visitorName: string | null;
  visitorEmail: string | null;
  pageUrl: string | null;
  referrer: string | null;
  userAgent: string | null;
  locale: string | null;
  handoffRequestedAt: Date | null;
  closedAt: Date | null;
  closedReason: string | null;
  lastMessageAt: Date;
  createdAt: Date;
  updatedAt: Date;
};

export type Message = {
  id: string;
  /** Orders a conversation's messages; the widget and the inbox poll for messages after one. */
  seq: number;
  conversationId: string;
  author: MessageAuthor;
  authorName: string | null;
  text: string;
  createdAt: Date;
};

/** Nothing is written to a closed conversation (nor through another account's widget). */
export const CONVERSATION_CLOSED = fail(
  "conversation_closed",
  "This conversation is closed. Start a new conversation.",
);

/** What a visitor's message or handoff request comes to (lib/conversations/visitor.ts). */
export type VisitorResult =
  { ok: true; conversation: Conversation; messages: Message[] } | Failure<"conversation_closed">;

export function serializeConversation(conversation: Conversation) {
  return {
    id: conversation.id,
    status: conversation.status,
    widget_id: conversation.widgetId,
    lead_id: conversation.leadId,
    visitor_name: conversation.visitorName,
    visitor_email: conversation.visitorEmail,
    contact: claimedContact(conversation),
    started_at: conversation.createdAt.toISOString(),
    page_url: conversation.pageUrl,
    referrer: conversation.referrer,
    user_agent: conversation.userAgent,
    locale: conversation.locale,
    handoff_requested_at: conversation.handoffRequestedAt?.toISOString() ?? null,
    closed_at: conversation.closedAt?.toISOString() ?? null,
    closed_reason: conversation.closedReason,
    last_message_at: conversation.lastMessageAt.toISOString(),
    created_at: conversation.createdAt.toISOString(),
    updated_at: conversation.updatedAt.toISOString(),
  };
}

/**
 * What the visitor typed in the chat, as a claim: the chat proves nothing about an email, so `verified`
 * is false and a claim never links a lead by itself (docs/conversations.md, "Leads from the chat").
 */
export function claimedContact(conversation: Pick<Conversation, "visitorName" | "visitorEmail">) {
  if (!conversation.visitorEmail) return null;
  return { name: conversation.visitorName, email: conversation.visitorEmail, verified: false };
}

export type SerializedConversation = ReturnType<typeof serializeConversation>;

export function serializeMessage(message: Message) {
  return {
    id: message.id,
    conversation_id: message.conversationId,
    author: message.author,
    author_name: message.authorName,
    text: message.text,
    created_at: message.createdAt.toISOString(),
  };
}

export type SerializedMessage = ReturnType<typeof serializeMessage>;
