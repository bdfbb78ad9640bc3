import "server-only";
import { inTransaction } from "@/lib/platform/db/transaction";
import { createLead } from "@/lib/leads/create";
import type { LeadContext } from "@/lib/leads/model";
import { createLeadSchema } from "@/lib/leads/schemas";
import { fail, type Failure } from "@/lib/platform/result";
import type { FieldError } from "@/lib/platform/validation";
import { CONVERSATION_CLOSED, type Conversation, type Message } from "./model";
import { CONVERSATION_COLUMNS, insertMessages, toConversation, type ConversationRow } from "./sql";
import type { ChatWidget } from "./widget";

/*
 * A visitor leaving name and email in the chat (docs/conversations.md, "Leads from the chat"). The
 * visitor is anonymous and the email is their word, not proof: it is kept on the conversation as a
 * claim (visitor_name, visitor_email). An email of no lead makes a lead with source "chat", linked to
 * the conversation. An email that already belongs to a lead changes nothing of that lead and links
 * nothing: the inbox shows the claim as not verified and an agent links the two ("Link to lead",
 * lib/conversations/link-lead.ts). The visitor gets the same answer either way, so the chat does not
 * tell anyone whether a lead has an email.
 */

export type ContactResult =
  /** `leadId`: the lead made from this claim and linked to the conversation; null when none was made. */
  | { ok: true; conversation: Conversation; leadId: string | null; messages: Message[] }
  | (Failure<"invalid_request"> & { details: FieldError[] })
  | Failure<"conversation_closed">;

/** The first field's message leads; a refusal without fields still names the email. */
function invalidContact(details: FieldError[]): Failure<"invalid_request"> & { details: FieldError[] } {
  const named = details.length ? details : [{ field: "email", message: "Enter a valid email address." }];
  return { ...fail("invalid_request", details[0]?.message ?? "Check your name and email."), details: named };
}

export async function leaveContact(
  widget: ChatWidget,
  conversation: Conversation,
  input: { name: unknown; email: unknown },
): Promise<ContactResult> {
  if (typeof input.email !== "string" || input.email.trim() === "")
    return invalidContact([{ field: "email", message: "Enter your email address." }]);
  const parsed = createLeadSchema.safeParse({ name: input.name ?? null, email: input.email, source: "chat" });
  if (!parsed.success) {
    return invalidContact(
      parsed.error.issues.map((issue) => ({ field: String(issue.path[0] ?? "email"), message: issue.message })),
    );
  }
  const context: LeadContext = {
    accountId: widget.accountId,
    actor: { type: "chat", conversationId: conversation.id },
  };
  // A conversation already linked (by an earlier claim, or by an agent's "Link to lead") keeps its link: a
  // new lead from this claim is not attached to it, so lead and conversation never point past each other.
  const created = await createLead(context, {
    ...parsed.data,
    conversationId: conversation.leadId ? null : conversation.id,
  });
  if (!created.ok && created.code !== "exists") {
    return invalidContact(created.code === "invalid" ? created.details : []);
  }
  const leadId = created.ok ? created.lead.id : null;

  const name = parsed.data.name;
  const email = parsed.data.email!;
  return inTransaction(async (client) => {
    // A conversation keeps the link it has; only an unlinked one takes the lead this claim made.
    const { rows } = await client.query<ConversationRow>(
      `UPDATE conversations SET lead_id = COALESCE(lead_id, $3), visitor_name = COALESCE($4, visitor_name),
         visitor_email = $5, updated_at = now(), last_message_at = now()
       WHERE account_id = $1 AND id = $2 AND status <> 'closed' RETURNING ${CONVERSATION_COLUMNS}`,
      [widget.accountId, conversation.id, leadId, name, email],
    );
    if (!rows[0]) return CONVERSATION_CLOSED;
    const thanks = `Thanks${name ? `, ${name}` : ""}. The team can reach you at ${email}.`;
    const messages = await insertMessages(client, widget.accountId, conversation.id, [
      { author: "system", authorName: null, text: thanks },
    ]);
    return { ok: true, conversation: toConversation(rows[0]), leadId, messages };
  });
}
