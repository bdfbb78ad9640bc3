import "server-only";
import { db } from "@/lib/platform/db/client";
import { isPublicId } from "@/lib/platform/ids";
import { raw, sql } from "@/lib/platform/db/sql";
import { encodeCursor, keysetPage, keysetQuery, type Page } from "@/lib/platform/pagination/keyset";
import { matchingConversations } from "./inbox-search";
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
  /** The inbox's search (inbox-search.ts). */
  search?: string | null;
};

export async function listConversations(
  accountId: string,
  options: ConversationListOptions,
): Promise<Page<Conversation>> {
  const where = [sql`account_id = ${accountId}`];
  if (options.status) where.push(sql`status = ${options.status}::"ConversationStatus"`);
  if (options.updatedAfter) where.push(sql`updated_at > ${options.updatedAfter}`);
  if (options.search) where.push(matchingConversations(accountId, options.search));
  const query = keysetQuery({
    select: sql`SELECT ${raw(CONVERSATION_COLUMNS)} FROM conversations`,
    where,
    columns: ["updated_at", "id"],
    parts: CONVERSATION_CURSOR.parts,
    cursor: options.cursor ? [options.cursor.updatedAt, options.cursor.id] : null,
    direction: options.order === "desc" ? "descending" : "ascending",
    limit: options.limit,
  });
  const { rows } = await db.pool.query<ConversationRow>(query.text, query.values);
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
    `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_id = $1 AND account_id = $2 AND seq > $3
      ORDER BY seq LIMIT $4`,
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
