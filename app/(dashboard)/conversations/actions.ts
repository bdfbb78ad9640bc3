"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, ok } from "@/lib/actions/action";
import { agentReply, closeConversation } from "@/lib/conversations/agent";
import { linkClaimedLead } from "@/lib/conversations/link-lead";
import type { ConversationStatus } from "@/lib/conversations/model";
import { checkMessageText, MAX_AUTHOR_NAME_LENGTH } from "@/lib/conversations/text";
import { isPublicId } from "@/lib/platform/ids";
import { leadDisplayName } from "@/lib/leads/display";
import { messageView, type MessageView } from "./view-model";

/*
 * Server actions of the inbox. Owners and admins reply, close and link leads; members only read
 * (defineAction's role). The account comes from the session and every domain call is scoped by it, so another
 * account's conversation id is simply not found. The state rule (replies only in handoff) is the
 * domain's, checked in the same locked transaction as the write (lib/conversations/agent.ts).
 */

const conversation = z.object({ conversationId: z.string().max(100) });

const NOT_FOUND = "This conversation no longer exists.";
const NO_MATCHING_LEAD = "No lead has the email this visitor left any more. Reload the page.";

const REFUSED: Record<ConversationStatus, string> = {
  bot: "The assistant is handling this conversation. You can reply once the visitor asks for a person.",
  closed: "This conversation was closed, so your reply was not sent.",
  // Never refused for these; listed so every status has words.
  handoff_requested: "Your reply was not sent. Reload the page and try again.",
  handoff_active: "Your reply was not sent. Reload the page and try again.",
};

const revalidate = (id: string) => {
  revalidatePath("/conversations");
  revalidatePath(`/conversations/${id}`);
};

export const replyToConversationAction = defineAction(
  { role: "manager", input: conversation.extend({ text: z.unknown() }) },
  async ({ conversationId, text }, { account, user }) => {
    const checked = checkMessageText(text);
    if (!checked.ok) return fail(checked.message, { text: checked.message });
    // The visitor sees the agent's name above the reply.
    const authorName = [...(user.name.trim() || user.email)].slice(0, MAX_AUTHOR_NAME_LENGTH).join("");
    const result = await agentReply(account.id, conversationId, { text: checked.text, authorName });
    if (!result.ok) return fail(result.code === "not_found" ? NOT_FOUND : REFUSED[result.status]);
    revalidate(conversationId);
    return ok<{ message: MessageView }>({ message: messageView(result.message, account.timezone) });
  },
);

export const closeConversationAction = defineAction(
  { role: "manager", input: conversation },
  async ({ conversationId }, { account, user }) => {
    const result = await closeConversation(account.id, conversationId, "agent", { auditUserId: user.id });
    if (!result.ok) return fail(NOT_FOUND);
    revalidate(conversationId);
    return ok({ message: result.changed ? "Conversation closed." : "This conversation was already closed." });
  },
);

/*
 * "Link to lead": the agent's word that the visitor who left an existing lead's email is that person.
 * Owners and admins, like every other write of the inbox and of leads (it changes the lead's
 * conversation_id and announces lead.updated); audited by the domain.
 */
export const linkConversationToLeadAction = defineAction(
  {
    role: "manager",
    input: conversation.extend({ leadId: z.string().refine((id) => isPublicId(id, "lead"), "Not a lead id.") }),
  },
  async ({ conversationId, leadId }, { account, user }) => {
    const result = await linkClaimedLead(account.id, conversationId, leadId, user.id);
    if (!result.ok) return fail(result.code === "not_found" ? NOT_FOUND : NO_MATCHING_LEAD);
    revalidate(conversationId);
    revalidatePath(`/leads/${result.lead.id}`);
    const name = leadDisplayName(result.lead);
    return ok({ message: result.changed ? `Linked to ${name}.` : `Already linked to ${name}.` });
  },
);
