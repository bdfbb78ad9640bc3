import { inject } from "vitest";
import { closeConversation } from "@/lib/conversations/agent";
import type { Conversation } from "@/lib/conversations/model";
import { requestHandoff, startConversation } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";

/*
 * Conversations in the app instance's database, made by the domain functions the chat widget's endpoints
 * call (a visitor opens the chat, asks for a person), the way the lead tests make leads through the API.
 * The pool is created on first use, so pointing DATABASE_URL at the instance's database here is enough.
 */

process.env.DATABASE_URL = inject("zapierDatabaseUrl");

const session = {
  pageUrl: "https://example.com/events",
  referrer: null,
  userAgent: "Zapier test visitor",
  locale: "en-GB",
};

/** A new conversation: `bot` (with the assistant), `handoff_requested` (the visitor asked for a person) or `closed`. */
export async function conversationIn(status: "bot" | "handoff_requested" | "closed"): Promise<Conversation> {
  const accountId = inject("zapierAccountId");
  const widget = await getOrCreateWidget(accountId);
  const { conversation } = await startConversation(widget, session);
  if (status === "bot") return conversation;
  const asked = await requestHandoff(widget, conversation);
  if (!asked.ok) throw new Error("could not ask for a person");
  if (status === "handoff_requested") return asked.conversation;
  const closed = await closeConversation(accountId, conversation.id, "agent");
  if (!closed.ok) throw new Error("could not close the conversation");
  return closed.conversation;
}

/** Lets the worker exit: the pool would otherwise keep idle connections open. */
export async function closeDatabase(): Promise<void> {
  await db.pool.end();
}
