import "server-only";
import { db } from "@/lib/platform/db/client";
import { isPublicId } from "@/lib/platform/ids";
import { encodeCursor, keysetCondition, keysetPage, type Page } from "@/lib/platform/pagination/keyset";
import { type Conversation, type ConversationStatus, type Message } from "./model";
import { CONVERSATION_CURSOR, MESSAGE_CURSOR, type ConversationCursor } from "./schemas";
import {
  CONVERSATION_COLUMNS,
  MESSAGE_COLUMNS,
  toConversation,
  toMessage,
  type ConversationRow,
  type MessageRow,
} from "./sql";

/*
 * Reading conversations, always scoped by account. Lists page by (updated_at, id), newest activity
 * first, on the indexes of the conversations migration; messages page by seq, oldest first.
 */

// The cursors are defined with the API's query schemas, which decode them (as the leads do).
export { CONVERSATION_CURSOR, MESSAGE_CURSOR, type ConversationCursor };

export async function getConversation(accountId: string, id: string): Promise<Conversation | null> {
  if (!isPublicId(id, "conversation")) return null;
  const { rows } = await db.pool.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE account_id = $1 AND id = $2`,
    [accountId, id],
  );
  return rows[0] ? toConversation(rows[0]) : null;
}

export type ConversationListOptions = {
  status?: ConversationStatus | null;
  updatedAfter?: Date | null;
  limit: number;
  order: "asc" | "desc";
  cursor?: ConversationCursor | null;
};

export async function listConversations(
  accountId: string,
  options: ConversationListOptions,
): Promise<Page<Conversation>> {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = [`account_id = ${param(accountId)}`];
  if (options.status) where.push(`status = ${param(options.status)}::"ConversationStatus"`);
  if (options.updatedAfter) where.push(`updated_at > ${param(options.updatedAfter)}`);
  const desc = options.order === "desc";
  if (options.cursor) {
    const key = [options.cursor.updatedAt, options.cursor.id];
    where.push(
      keysetCondition(
        ["updated_at", "id"],
        CONVERSATION_CURSOR.parts,
        key,
        desc ? "descending" : "ascending",
        (value, cast) => `${param(value)}::${cast}`,
      ),
    );
  }
  const direction = desc ? "DESC" : "ASC";
  const { rows } = await db.pool.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE ${where.join(" AND ")}
     ORDER BY updated_at ${direction}, id ${direction} LIMIT ${param(options.limit + 1)}`,
    values,
  );
  return keysetPage(rows.map(toConversation), options.limit, (last) =>
    encodeCursor(CONVERSATION_CURSOR.tag, [last.updatedAt, last.id]),
  );
}

/** Oldest first, after `afterSeq` (what the widget and the inbox poll with, and the API's cursor). */
export async function listMessages(
  accountId: string,
  conversationId: string,
  options: { afterSeq?: number; limit: number },
): Promise<Page<Message>> {
  const { rows } = await db.pool.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_id = $1 AND account_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
    [conversationId, accountId, options.afterSeq ?? 0, options.limit + 1],
  );
  return keysetPage(rows.map(toMessage), options.limit, (last) => encodeCursor(MESSAGE_CURSOR.tag, [String(last.seq)]));
}

/** The nav badge: conversations waiting for a person. */
export async function countNeedingPerson(accountId: string): Promise<number> {
  const { rows } = await db.pool.query<{ count: string }>(
    `SELECT count(*) FROM conversations WHERE account_id = $1 AND status = 'handoff_requested'`,
    [accountId],
  );
  return Number(rows[0]?.count ?? 0);
}
