import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { inTransaction } from "@/lib/platform/db/transaction";
import { isPublicId } from "@/lib/platform/ids";
import { fail, type Failure } from "@/lib/platform/result";
import { recordLeadChanges } from "@/lib/leads/changes";
import { leadDisplayName } from "@/lib/leads/display";
import type { Lead } from "@/lib/leads/model";
import { LEAD_COLUMNS, toLead, type LeadRow } from "@/lib/leads/sql";
import { CONVERSATION_COLUMNS, toConversation, type ConversationRow } from "./sql";

/*
 * "Link to lead": an agent decides that the visitor who left an existing lead's email is that person
 * (the chat itself never links them, lib/conversations/contact.ts). The link is what the chat's
 * automatic link was: the conversation's lead_id, and the lead's conversation_id unless it already
 * names one; a lead that changes is announced as lead.updated. Nothing else of the lead changes: the
 * claimed name stays the visitor's word. Audited, in the same transaction.
 */

const NOT_FOUND = fail("not_found", "This conversation or lead does not exist.");

export type LinkLeadResult =
  | { ok: true; lead: Lead; changed: boolean }
  | Failure<"not_found">
  /** The lead no longer has the email the visitor left (edited or deleted meanwhile), or never had it. */
  | Failure<"no_match">;

export async function linkClaimedLead(
  accountId: string,
  conversationId: string,
  leadId: string,
  userId: string,
): Promise<LinkLeadResult> {
  if (!isPublicId(conversationId, "conversation")) return NOT_FOUND;
  return inTransaction(async (client) => {
    const found = await client.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE account_id = $1 AND id = $2 FOR UPDATE`,
      [accountId, conversationId],
    );
    if (!found.rows[0]) return NOT_FOUND;
    const conversation = toConversation(found.rows[0]);
    // Only the lead that has the claimed email now: the one the agent was shown.
    const matched = await client.query<LeadRow>(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE account_id = $1 AND id = $2 AND email = $3 FOR UPDATE`,
      [accountId, leadId, conversation.visitorEmail],
    );
    if (!matched.rows[0]) return fail("no_match", "The lead does not have the email the visitor left.");
    let lead = toLead(matched.rows[0]);
    if (conversation.leadId === lead.id) return { ok: true, lead, changed: false } as const;

    const updated = await client.query<LeadRow>(
      `UPDATE leads SET conversation_id = $3, updated_at = now()
       WHERE account_id = $1 AND id = $2 AND conversation_id IS NULL RETURNING ${LEAD_COLUMNS}`,
      [accountId, lead.id, conversation.id],
    );
    if (updated.rows[0]) {
      lead = toLead(updated.rows[0]);
      const context = { accountId, actor: { type: "user", userId } } as const;
      await recordLeadChanges(client, context, [{ type: "lead.updated", lead, fields: ["conversation_id"] }]);
    }
    await client.query(`UPDATE conversations SET lead_id = $3, updated_at = now() WHERE account_id = $1 AND id = $2`, [
      accountId,
      conversation.id,
      lead.id,
    ]);
    await recordAuditSql(client, {
      accountId,
      actorUserId: userId,
      action: "conversation.lead_linked",
      target: {
        type: "conversation",
        id: conversation.id,
        label: conversation.visitorName ?? conversation.visitorEmail ?? "Visitor",
      },
      metadata: { leadId: lead.id, lead: leadDisplayName(lead) },
    });
    return { ok: true, lead, changed: true } as const;
  });
}
