import "server-only";
import type { Queryable } from "@/lib/platform/db/transaction";
import { newPublicId } from "@/lib/platform/ids";
import { emitMessagesCte } from "@/lib/outbound/sql";
import { CONVERSATION_CLOSED, type Conversation, type MessageAuthor, type VisitorResult } from "./model";
import { CONVERSATION_COLUMNS, conversationColumnsOf, toConversation, toMessage, type ConversationRow } from "./sql";

/*
 * A visitor's message that does not ask for a person (the common case: a question to the assistant, or a
 * line in a handoff), written by one statement instead of a transaction of five round trips; on this
 * VM a round trip to PostgreSQL costs more than the statement (docs/architecture.md, "Hot paths").
 *
 * The statement does what postVisitorMessage's transaction does for such a message, with the same
 * guarantees: the UPDATE takes the conversation's row lock before the messages get their seq (see
 * insertMessages), and reads the status as it is once the lock is held, so a conversation closed or
 * handed off meanwhile gets no message, or no assistant answer. The message.created notification is
 * built here as serializeMessage builds it (model.ts), and commits with the messages or not at all.
 */

const POST_SQL = `WITH touched AS (
    UPDATE conversations SET last_message_at = now(), updated_at = now()
    WHERE id = $1::text AND account_id = $2::uuid AND status <> 'closed'
    RETURNING ${CONVERSATION_COLUMNS}),
  lines AS (
    -- The assistant answers only while the conversation is still the assistant's.
    SELECT u.id, u.author, CASE WHEN u.author = 'visitor' THEN t.visitor_name ELSE $6::text END
      AS author_name, u.text, u.n
    FROM touched t, unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(id, author, text, n)
    WHERE u.author = 'visitor' OR t.status = 'bot'),
  inserted AS (
    INSERT INTO conversation_messages (id, conversation_id, account_id, author, author_name, text)
    SELECT l.id, $1::text, $2::uuid, l.author::"MessageAuthor", l.author_name, l.text FROM lines l ORDER BY l.n
    RETURNING id, seq, author, author_name, text, created_at),
  ${emitMessagesCte(
    "notified",
    `SELECT $2::uuid AS account_id, 'message.created' AS type,
       jsonb_build_object('id', i.id, 'conversation_id', $1::text, 'author', i.author, 'author_name', i.author_name,
         'text', i.text, 'created_at', outbound_iso_time(i.created_at)) AS data
     FROM inserted i WHERE i.author = 'visitor' ORDER BY i.seq`,
  )}
  SELECT ${conversationColumnsOf("t")}, i.id AS message_id, i.seq AS message_seq, i.author AS message_author,
         i.author_name AS message_author_name, i.text AS message_text, i.created_at AS message_created_at
  FROM touched t JOIN inserted i ON true ORDER BY i.seq`;

type Row = ConversationRow & {
  message_id: string;
  message_seq: string;
  message_author: MessageAuthor;
  message_author_name: string | null;
  message_text: string;
  message_created_at: Date;
};

/** The visitor's line and, while the assistant has the conversation, its answer; "closed" if it is closed. */
export async function writeVisitorMessage(
  client: Queryable,
  accountId: string,
  conversationId: string,
  text: string,
  answer: { authorName: string; text: string } | null,
): Promise<VisitorResult> {
  const lines: { author: MessageAuthor; text: string }[] = [{ author: "visitor", text }];
  if (answer) lines.push({ author: "assistant", text: answer.text });
  const { rows } = await client.query<Row>({
    name: "chat-visitor-message",
    text: POST_SQL,
    values: [
      conversationId,
      accountId,
      lines.map(() => newPublicId("chatMessage")),
      lines.map((line) => line.author),
      lines.map((line) => line.text),
      answer?.authorName ?? null,
    ],
  });
  if (!rows[0]) return CONVERSATION_CLOSED;
  const conversation: Conversation = toConversation(rows[0]);
  const messages = rows.map((row) =>
    toMessage({
      id: row.message_id,
      seq: row.message_seq,
      conversation_id: conversationId,
      author: row.message_author,
      author_name: row.message_author_name,
      text: row.message_text,
      created_at: row.message_created_at,
    }),
  );
  return { ok: true, conversation, messages };
}
