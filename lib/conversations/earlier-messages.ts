import "server-only";
import { EARLIER_MESSAGES } from "@/lib/assistant/answer";
import type { Queryable } from "@/lib/platform/db/transaction";

/*
 * The visitor's earlier messages, newest first, for a "show more" (lib/assistant/answer.ts finds the
 * question it continues among them). Read only for such a message: one indexed walk back from the
 * conversation's newest seq.
 */
export async function earlierVisitorMessages(
  client: Queryable,
  accountId: string,
  conversationId: string,
): Promise<string[]> {
  const { rows } = await client.query<{ text: string }>(
    `SELECT text FROM conversation_messages
     WHERE conversation_id = $1 AND account_id = $2 AND author = 'visitor'
     ORDER BY seq DESC LIMIT $3`,
    [conversationId, accountId, EARLIER_MESSAGES],
  );
  return rows.map((row) => row.text);
}
