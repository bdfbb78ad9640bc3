import "server-only";
import type { Queryable } from "@/lib/platform/db/transaction";
import type { Notification } from "@/lib/outbound/emit";
import { newPublicId } from "@/lib/platform/ids";
import {
  serializeConversation,
  serializeMessage,
  type Conversation,
  type ConversationStatus,
  type Message,
  type MessageAuthor,
} from "./model";

/* Shared SQL of the conversations domain. Hot paths use the pg pool directly (no ORM per request). */

export const CONVERSATION_COLUMNS = `id, widget_id, status, lead_id, visitor_name, visitor_email, page_url, referrer,
  user_agent, locale, handoff_requested_at, closed_at, closed_reason, last_message_at, created_at, updated_at`;

/** CONVERSATION_COLUMNS of the conversations row named `alias`, for statements that join it. */
export const conversationColumnsOf = (alias: string) =>
  CONVERSATION_COLUMNS.split(",")
    .map((column) => `${alias}.${column.trim()}`)
    .join(", ");

export const MESSAGE_COLUMNS = `id, seq, conversation_id, author, author_name, text, created_at`;

export type ConversationRow = {
  id: string;
  widget_id: string;
  status: ConversationStatus;
  lead_id: string | null;
  visitor_name: string | null;
  visitor_email: string | null;
  page_url: string | null;
  referrer: string | null;
  user_agent: string | null;
  locale: string | null;
  handoff_requested_at: Date | null;
  closed_at: Date | null;
  closed_reason: string | null;
  last_message_at: Date;
  created_at: Date;
  updated_at: Date;
};

export type MessageRow = {
  id: string;
  seq: string;
  conversation_id: string;
  author: MessageAuthor;
  author_name: string | null;
  text: string;
  created_at: Date;
};

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    widgetId: row.widget_id,
    status: row.status,
    leadId: row.lead_id,
    visitorName: row.visitor_name,
    visitorEmail: row.visitor_email,
    pageUrl: row.page_url,
    referrer: row.referrer,
    userAgent: row.user_agent,
    locale: row.locale,
    handoffRequestedAt: row.handoff_requested_at,
    closedAt: row.closed_at,
    closedReason: row.closed_reason,
    lastMessageAt: row.last_message_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    seq: Number(row.seq),
    conversationId: row.conversation_id,
    author: row.author,
    authorName: row.author_name,
    text: row.text,
    createdAt: row.created_at,
  };
}

export type NewMessage = { author: MessageAuthor; authorName: string | null; text: string };

/*
 * Callers hold the conversation's row lock (they UPDATE it first in the same transaction), so the
 * messages of one conversation get their seq and commit in the same order: a poller reading
 * "seq > last seen" never skips a message that commits late.
 */
export async function insertMessages(
  client: Queryable,
  accountId: string,
  conversationId: string,
  messages: NewMessage[],
): Promise<Message[]> {
  if (messages.length === 0) return [];
  const { rows } = await client.query<MessageRow>(
    `INSERT INTO conversation_messages (id, conversation_id, account_id, author, author_name, text)
     SELECT u.id, $1, $2, u.author::"MessageAuthor", u.author_name, u.text
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS u(id, author, author_name, text, n)
     ORDER BY u.n
     RETURNING ${MESSAGE_COLUMNS}`,
    [
      conversationId,
      accountId,
      messages.map(() => newPublicId("chatMessage")),
      messages.map((message) => message.author),
      messages.map((message) => message.authorName),
      messages.map((message) => message.text),
    ],
  );
  return rows.map(toMessage).sort((a, b) => a.seq - b.seq);
}

/** The catalogue's conversation.* and message.created payloads: the objects as the public API returns them. */
export function conversationNotification(
  type: "conversation.started" | "conversation.handoff_requested" | "conversation.closed",
  conversation: Conversation,
): Notification {
  return { type, data: serializeConversation(conversation) };
}

/** Visitor and agent messages are announced; the assistant's and system lines are not. */
export function messageNotifications(messages: Message[]): Notification[] {
  return messages
    .filter((message) => message.author === "visitor" || message.author === "agent")
    .map((message) => ({ type: "message.created", data: serializeMessage(message) }));
}
