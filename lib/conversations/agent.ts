import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { param, raw, sql, type Sql } from "@/lib/platform/db/sql";
import { inTransaction, type Queryable } from "@/lib/platform/db/transaction";
import { emitNotifications } from "@/lib/outbound/emit";
import { isPublicId } from "@/lib/platform/ids";
import { fail, type Failure } from "@/lib/platform/result";
import { IDLE_CLOSE_MS, type Conversation, type Message } from "./model";
import {
  CONVERSATION_COLUMNS,
  conversationNotification,
  insertMessages,
  messageNotifications,
  toConversation,
  type ConversationRow,
} from "./sql";

/*
 * The team's side: agents reply (dashboard inbox or the public API with write:conversations) and close
 * conversations. A reply is only possible in handoff (docs/conversations.md, "States"); the first one
 * makes the conversation handoff_active. The state check and the write are one locked transaction, so
 * a reply racing a close either lands before it or gets the 409.
 */

const CONVERSATION_NOT_FOUND = fail("not_found", "This conversation does not exist.");

export type AgentResult =
  | { ok: true; conversation: Conversation; message: Message }
  | Failure<"not_found">
  | (Failure<"not_in_handoff"> & { status: Conversation["status"] });

export async function agentReply(
  accountId: string,
  conversationId: string,
  reply: { text: string; authorName: string | null },
): Promise<AgentResult> {
  if (!isPublicId(conversationId, "conversation")) return CONVERSATION_NOT_FOUND;
  return inTransaction(async (client) => {
    const { rows } = await client.query<ConversationRow>(
      `UPDATE conversations SET status = 'handoff_active', last_message_at = now(), updated_at = now()
       WHERE account_id = $1 AND id = $2 AND status IN ('handoff_requested', 'handoff_active')
       RETURNING ${CONVERSATION_COLUMNS}`,
      [accountId, conversationId],
    );
    if (!rows[0]) return refusal(client, accountId, conversationId);
    const conversation = toConversation(rows[0]);
    const [message] = await insertMessages(client, accountId, conversationId, [
      { author: "agent", authorName: reply.authorName, text: reply.text },
    ]);
    await emitNotifications(client, accountId, messageNotifications([message!]));
    return { ok: true, conversation, message: message! };
  });
}

async function refusal(client: Queryable, accountId: string, conversationId: string): Promise<AgentResult> {
  const { rows } = await client.query<{ status: Conversation["status"] }>(
    `SELECT status FROM conversations WHERE account_id = $1 AND id = $2`,
    [accountId, conversationId],
  );
  return rows[0]
    ? { ...fail("not_in_handoff", "The conversation is not waiting for a person."), status: rows[0].status }
    : CONVERSATION_NOT_FOUND;
}

export const CLOSED_NOTICE = "This conversation was closed. Start a new one any time.";

export type CloseResult = { ok: true; conversation: Conversation; changed: boolean } | Failure<"not_found">;

/**
 * Closing twice is not an error: the second call changes nothing and announces nothing. A close by a
 * signed-in person (`auditUserId`) is written to the audit log in the same transaction.
 */
export async function closeConversation(
  accountId: string,
  conversationId: string,
  reason: "agent" | "api",
  options: { auditUserId?: string } = {},
): Promise<CloseResult> {
  if (!isPublicId(conversationId, "conversation")) return CONVERSATION_NOT_FOUND;
  return inTransaction(async (client) => {
    const closed = await closeWhere(client, sql`account_id = ${accountId} AND id = ${conversationId}`, reason);
    if (closed[0]) {
      if (options.auditUserId) await auditClose(client, accountId, options.auditUserId, closed[0]);
      return { ok: true, conversation: closed[0], changed: true };
    }
    const { rows } = await client.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE account_id = $1 AND id = $2`,
      [accountId, conversationId],
    );
    return rows[0] ? { ok: true, conversation: toConversation(rows[0]), changed: false } : CONVERSATION_NOT_FOUND;
  });
}

async function auditClose(
  client: Queryable,
  accountId: string,
  userId: string,
  conversation: Conversation,
): Promise<void> {
  await recordAuditSql(client, {
    accountId,
    actorUserId: userId,
    action: "conversation.closed",
    target: {
      type: "conversation",
      id: conversation.id,
      label: conversation.visitorName ?? conversation.visitorEmail ?? "Visitor",
    },
  });
}

/* Closes the open conversations matching `where`, adds the closing line and announces each close. */
async function closeWhere(client: Queryable, where: Sql, reason: string): Promise<Conversation[]> {
  const statement = sql`UPDATE conversations SET status = 'closed', closed_at = now(), closed_reason = ${reason},
      updated_at = now()
     WHERE ${where} AND status <> 'closed'
     RETURNING ${raw(CONVERSATION_COLUMNS)}, account_id`;
  const { rows } = await client.query<ConversationRow & { account_id: string }>(statement.text, statement.values);
  for (const row of rows) {
    const conversation = toConversation(row);
    await insertMessages(client, row.account_id, conversation.id, [
      { author: "system", authorName: null, text: CLOSED_NOTICE },
    ]);
    await emitNotifications(client, row.account_id, [conversationNotification("conversation.closed", conversation)]);
  }
  return rows.map(toConversation);
}

/*
 * Closes conversations without a message for 24 hours, a batch at a time (the retention schedule runs
 * it). SKIP LOCKED: a conversation being written to right now is simply left for the next run.
 */
export async function closeIdleConversations(options: { batchSize?: number; idleMs?: number } = {}): Promise<number> {
  const batchSize = options.batchSize ?? 200;
  const idleMs = options.idleMs ?? IDLE_CLOSE_MS;
  let total = 0;
  for (;;) {
    const closed = await inTransaction((client) =>
      closeWhere(
        client,
        sql`(account_id, id) IN (SELECT account_id, id FROM conversations WHERE status <> 'closed'
          AND last_message_at < now() - make_interval(secs => ${param(idleMs, "float8")} / 1000)
           ORDER BY last_message_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
        "idle",
      ),
    );
    total += closed.length;
    if (closed.length < batchSize) return total;
  }
}
