import "server-only";
import crypto from "node:crypto";
import { answerVisitor } from "@/lib/assistant/answer";
import { understand } from "@/lib/assistant/intent";
import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { db } from "@/lib/platform/db/client";
import { onOneConnection } from "@/lib/platform/db/connection";
import { inTransaction, type Queryable } from "@/lib/platform/db/transaction";
import { recordChatReply } from "@/lib/platform/observability/metrics";
import { emitNotifications } from "@/lib/outbound/emit";
import { newPublicId, randomBase62 } from "@/lib/platform/ids";
import { earlierVisitorMessages } from "./earlier-messages";
import { handoffNotice } from "./handoff-notice";
import { CONVERSATION_CLOSED, type Conversation, type Message, type VisitorResult } from "./model";
import {
  CONVERSATION_COLUMNS,
  conversationColumnsOf,
  conversationNotification,
  insertMessages,
  messageNotifications,
  toConversation,
  type ConversationRow,
  type NewMessage,
} from "./sql";
import { writeVisitorMessage } from "./visitor-message";
import type { ChatWidget } from "./widget";

/*
 * The visitor's side of a conversation (docs/conversations.md). A visitor is anonymous: the token handed
 * out when the conversation starts is the only proof that a request comes from the same browser. Only
 * its SHA-256 is stored, and a wrong token reads exactly like an unknown conversation (404).
 */

export type SessionData = {
  pageUrl: string | null;
  referrer: string | null;
  userAgent: string | null;
  locale: string | null;
};

export { HANDOFF_NOTICE } from "./handoff-notice";

/** What is stored of a visitor token, and what its check compares (visitor-access.ts). */
export const hashVisitorToken = (token: string) => crypto.createHash("sha256").update(token).digest();

export async function startConversation(
  widget: ChatWidget,
  session: SessionData,
): Promise<{ conversation: Conversation; visitorToken: string; messages: Message[] }> {
  const visitorToken = randomBase62(40);
  return inTransaction(async (client) => {
    const { rows } = await client.query<ConversationRow>(
      `INSERT INTO conversations (id, account_id, widget_id, visitor_token_hash, page_url, referrer, user_agent, locale)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${CONVERSATION_COLUMNS}`,
      [
        newPublicId("conversation"),
        widget.accountId,
        widget.id,
        hashVisitorToken(visitorToken),
        session.pageUrl,
        session.referrer,
        session.userAgent,
        session.locale,
      ],
    );
    const conversation = toConversation(rows[0]!);
    // The greeting is part of the transcript, so the inbox shows what the visitor saw.
    const messages = await insertMessages(client, widget.accountId, conversation.id, [
      { author: "assistant", authorName: widget.assistantName, text: widget.greeting },
    ]);
    await emitNotifications(client, widget.accountId, [conversationNotification("conversation.started", conversation)]);
    return { conversation, visitorToken, messages };
  });
}

/*
 * Takes the conversation's row lock, reads its status as it was, records activity and starts the handoff
 * if the assistant had the conversation, in one statement; every writer of messages starts by locking
 * the row (see insertMessages for why). Null when it is closed.
 */
async function touchForHandoff(
  client: Queryable,
  accountId: string,
  id: string,
): Promise<{ conversation: Conversation; previousStatus: Conversation["status"] } | null> {
  const { rows } = await client.query<ConversationRow & { previous_status: Conversation["status"] }>(
    `UPDATE conversations c SET last_message_at = now(), updated_at = now(),
       status = CASE WHEN prev.status = 'bot' THEN 'handoff_requested'::"ConversationStatus" ELSE prev.status END,
       handoff_requested_at = CASE WHEN prev.status = 'bot' THEN now() ELSE c.handoff_requested_at END
     FROM (SELECT id, status FROM conversations WHERE id = $1 AND account_id = $2 FOR UPDATE) AS prev
     WHERE c.account_id = $2 AND c.id = prev.id AND prev.status <> 'closed'
     RETURNING ${conversationColumnsOf("c")}, prev.status AS previous_status`,
    [id, accountId],
  );
  if (!rows[0]) return null;
  return { conversation: toConversation(rows[0]), previousStatus: rows[0].previous_status };
}

/*
 * A visitor's message. In `bot` state the assistant answers it, unless it asks for a person, which
 * starts the handoff; from handoff_requested on the assistant stays silent. The answer is computed
 * before writing (the search is the slow part) and dropped if the state changed meanwhile.
 */
export async function postVisitorMessage(
  widget: ChatWidget,
  conversation: Conversation,
  text: string,
  now = new Date(),
): Promise<VisitorResult> {
  const intent = understand(text, now, safeTimeZone(widget.timezone));
  if (intent.kind !== "handoff") {
    // The search and the write on one connection: one wait for the pool per message (lib/platform/db/connection.ts).
    return onOneConnection(db.pool, async (client) => {
      const bot = conversation.status === "bot";
      // "show more" continues the visitor's latest question, read from the transcript.
      const earlier =
        bot && intent.kind === "more" ? await earlierVisitorMessages(client, widget.accountId, conversation.id) : [];
      const answer = bot
        ? await answerVisitor({
            accountId: widget.accountId,
            timezone: widget.timezone,
            message: text,
            now,
            intent,
            client,
            earlier,
          })
        : null;
      // One statement writes the message, any answer and the notification (visitor-message.ts).
      const written = await writeVisitorMessage(
        client,
        widget.accountId,
        conversation.id,
        text,
        answer ? { authorName: widget.assistantName, text: answer.text } : null,
      );
      if (written.ok) recordChatReply(answer ? "assistant" : "waiting_for_person");
      return written;
    });
  }
  return inTransaction(async (client) => {
    const touched = await touchForHandoff(client, widget.accountId, conversation.id);
    if (!touched) return CONVERSATION_CLOSED;
    const { conversation: current, previousStatus } = touched;
    recordChatReply(previousStatus === "bot" ? "handoff" : "waiting_for_person");
    const lines: NewMessage[] = [{ author: "visitor", authorName: current.visitorName, text }];
    const notifications = [];
    if (previousStatus === "bot" && current.status === "handoff_requested") {
      lines.push({ author: "system", authorName: null, text: handoffNotice(widget.replyTime) });
      notifications.push(conversationNotification("conversation.handoff_requested", current));
    }
    const messages = await insertMessages(client, widget.accountId, conversation.id, lines);
    await emitNotifications(client, widget.accountId, [...messageNotifications(messages), ...notifications]);
    return { ok: true, conversation: current, messages };
  });
}

/** "Talk to a person": idempotent; a conversation already in handoff answers with no new message. */
export async function requestHandoff(widget: ChatWidget, conversation: Conversation): Promise<VisitorResult> {
  return inTransaction(async (client) => {
    const touched = await touchForHandoff(client, widget.accountId, conversation.id);
    if (!touched) return CONVERSATION_CLOSED;
    if (touched.previousStatus !== "bot") return { ok: true, conversation: touched.conversation, messages: [] };
    const messages = await insertMessages(client, widget.accountId, conversation.id, [
      { author: "system", authorName: null, text: handoffNotice(widget.replyTime) },
    ]);
    await emitNotifications(client, widget.accountId, [
      conversationNotification("conversation.handoff_requested", touched.conversation),
    ]);
    return { ok: true, conversation: touched.conversation, messages };
  });
}
