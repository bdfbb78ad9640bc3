import "server-only";
import { inTransaction } from "@/lib/db/transaction";
import { recordLeadChanges } from "@/lib/leads/changes";
import { createLead } from "@/lib/leads/create";
import type { LeadContext } from "@/lib/leads/model";
import { createLeadSchema } from "@/lib/leads/schemas";
import { LEAD_COLUMNS, toLead, type LeadRow } from "@/lib/leads/sql";
import type { Conversation, Message } from "./model";
import { CONVERSATION_COLUMNS, insertMessages, toConversation, type ConversationRow } from "./sql";
import type { ChatWidget } from "./widget";

/*
 * A visitor leaving name and email in the chat: a lead with source "chat", linked to the conversation
 * (docs/conversations.md, "Leads from the chat"). The visitor is anonymous, so an email that already
 * belongs to a lead only fills that lead's blanks (name, conversation); it never overwrites what the
 * team or the CRM wrote.
 */

export type ContactResult =
  | { ok: true; conversation: Conversation; leadId: string; messages: Message[] }
  | { ok: false; reason: "invalid"; details: { field: string; message: string }[] }
  | { ok: false; reason: "closed" };

export async function leaveContact(widget: ChatWidget, conversation: Conversation, input: { name: unknown; email: unknown }): Promise<ContactResult> {
  if (typeof input.email !== "string" || input.email.trim() === "") return { ok: false, reason: "invalid", details: [{ field: "email", message: "Enter your email address." }] };
  const parsed = createLeadSchema.safeParse({ name: input.name ?? null, email: input.email, source: "chat" });
  if (!parsed.success) {
    return { ok: false, reason: "invalid", details: parsed.error.issues.map((issue) => ({ field: String(issue.path[0] ?? "email"), message: issue.message })) };
  }
  const context: LeadContext = { accountId: widget.accountId, actor: { type: "chat", conversationId: conversation.id } };
  const created = await createLead(context, { ...parsed.data, conversationId: conversation.id });
  let leadId: string;
  if (created.ok) leadId = created.lead.id;
  else if (created.reason === "exists") leadId = await fillBlanks(context, created.leadId, parsed.data.name, conversation.id);
  else return { ok: false, reason: "invalid", details: created.reason === "invalid" ? created.details : [] };

  const name = parsed.data.name;
  const email = parsed.data.email!;
  return inTransaction(async (client) => {
    const { rows } = await client.query<ConversationRow>(
      `UPDATE conversations SET lead_id = $3, visitor_name = COALESCE($4, visitor_name), visitor_email = $5, updated_at = now(), last_message_at = now()
       WHERE account_id = $1 AND id = $2 AND status <> 'closed' RETURNING ${CONVERSATION_COLUMNS}`,
      [widget.accountId, conversation.id, leadId, name, email],
    );
    if (!rows[0]) return { ok: false, reason: "closed" } as const;
    const thanks = `Thanks${name ? `, ${name}` : ""}. The team can reach you at ${email}.`;
    const messages = await insertMessages(client, widget.accountId, conversation.id, [{ author: "system", authorName: null, text: thanks }]);
    return { ok: true, conversation: toConversation(rows[0]), leadId, messages };
  });
}

async function fillBlanks(context: LeadContext, leadId: string, name: string | null, conversationId: string): Promise<string> {
  return inTransaction(async (client) => {
    const { rows } = await client.query<LeadRow>(
      `UPDATE leads SET name = COALESCE(name, $3), conversation_id = COALESCE(conversation_id, $4), updated_at = now()
       WHERE account_id = $1 AND id = $2 AND ((name IS NULL AND $3::text IS NOT NULL) OR conversation_id IS NULL)
       RETURNING ${LEAD_COLUMNS}`,
      [context.accountId, leadId, name, conversationId],
    );
    if (rows[0]) await recordLeadChanges(client, context, [{ type: "lead.updated", lead: toLead(rows[0]), fields: ["name", "conversation_id"] }]);
    return leadId;
  });
}
