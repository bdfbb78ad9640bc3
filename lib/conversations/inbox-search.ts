import "server-only";
import { raw, sql } from "@/lib/platform/db/sql";

/*
 * The inbox's search (docs/conversations.md, "The inbox"): conversations whose visitor's name or email,
 * or whose visitor's or team's messages, contain the words typed, case-insensitively. Each half is an
 * ILIKE '%…%' that a trigram index of the chat_widget_branding migration answers (the conversations'
 * name-and-email expression, and the messages of visitors and agents), always within the account; the
 * assistant's answers and system lines are not searched, as they repeat event titles in every chat.
 */

export const MAX_SEARCH_LENGTH = 100;

/** Exactly the expression of the index conversations_visitor_search_trgm_idx. */
const VISITOR_EXPRESSION = `(coalesce(visitor_name, '') || E'\\n' || coalesce(visitor_email, ''))`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** What is searched for: trimmed, white space collapsed, cut to MAX_SEARCH_LENGTH; null for nothing. */
export function searchText(value: string | null | undefined): string | null {
  const text = [...(value ?? "").replace(/\s+/g, " ").trim()].slice(0, MAX_SEARCH_LENGTH).join("");
  return text === "" ? null : text;
}

/** A condition on conversations (column `id`) keeping those of the account that match `text`. */
export function matchingConversations(accountId: string, text: string) {
  const pattern = `%${escapeLike(text)}%`;
  return sql`id IN (
    SELECT id FROM conversations WHERE account_id = ${accountId}::uuid AND ${raw(VISITOR_EXPRESSION)} ILIKE ${pattern}
    UNION
    SELECT conversation_id FROM conversation_messages
    WHERE account_id = ${accountId}::uuid AND author IN ('visitor', 'agent') AND text ILIKE ${pattern})`;
}
