import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { agentReply, closeConversation, closeIdleConversations } from "@/lib/conversations/agent";
import { leaveContact } from "@/lib/conversations/contact";
import { countNeedingPerson, getConversation, listMessages } from "@/lib/conversations/read";
import { checkVisitorAccess } from "@/lib/conversations/visitor-access";
import { postVisitorMessage, requestHandoff, startConversation } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { createAccount } from "../../support/factories";

const CLOSED = {
  ok: false,
  code: "conversation_closed",
  message: "This conversation is closed. Start a new conversation.",
};

/* The conversation domain against the real database: states, messages, notifications, leads. */

const session = { pageUrl: "https://example.com/events", referrer: null, userAgent: "test", locale: "en-GB" };

async function started() {
  const { accountId } = await createAccount();
  const widget = await getOrCreateWidget(accountId);
  const { conversation, visitorToken } = await startConversation(widget, session);
  return { accountId, widget, conversation, visitorToken };
}

const notificationTypes = async (accountId: string) =>
  (
    await db.pool.query<{ type: string }>(
      `SELECT type FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    )
  ).rows.map((row) => row.type);

describe("a conversation", () => {
  it("starts in bot state with the greeting, announces conversation.started, answers only its own token", async () => {
    const { accountId, widget, conversation, visitorToken } = await started();
    expect(conversation.status).toBe("bot");
    const { data } = await listMessages(accountId, conversation.id, { limit: 10 });
    expect(data.map((m) => [m.author, m.text])).toEqual([["assistant", widget.greeting]]);
    expect(await notificationTypes(accountId)).toEqual(["conversation.started"]);
    const check = (widgetId: string, token: string | null) =>
      checkVisitorAccess({ ip: "10.9.9.9", widgetId, conversationId: conversation.id, token, kind: "poll" });
    expect(await check(widget.id, visitorToken)).toEqual({
      ok: true,
      widget,
      conversation: (await getConversation(accountId, conversation.id))!,
    });
    const other = await started();
    const notFound = { ok: false, code: "not_found", message: "This conversation does not exist." };
    expect(await check(widget.id, other.visitorToken)).toEqual(notFound);
    expect(await check(other.widget.id, visitorToken)).toEqual(notFound);
    expect(await check(widget.id, null)).toEqual(notFound);
  });

  it("gets an assistant answer in bot state, and none once the visitor asked for a person", async () => {
    const { accountId, widget, conversation } = await started();
    const first = await postVisitorMessage(widget, conversation, "anything this weekend?");
    expect(first.ok && first.messages.map((m) => m.author)).toEqual(["visitor", "assistant"]);
    const asked = await postVisitorMessage(widget, conversation, "can I talk to a human please");
    expect(asked.ok && asked.conversation.status).toBe("handoff_requested");
    expect(asked.ok && asked.messages.map((m) => m.author)).toEqual(["visitor", "system"]);
    const later = await postVisitorMessage(widget, conversation, "hello?");
    expect(later.ok && later.messages.map((m) => m.author)).toEqual(["visitor"]);
    expect(await countNeedingPerson(accountId)).toBe(1);
    // One transaction's notifications share created_at, so compare them as a multiset.
    expect((await notificationTypes(accountId)).sort()).toEqual([
      "conversation.handoff_requested",
      "conversation.started",
      "message.created",
      "message.created",
      "message.created",
    ]);
  });

  it("refuses an agent reply outside handoff, and the first reply makes it handoff_active", async () => {
    const { accountId, widget, conversation } = await started();
    expect(await agentReply(accountId, conversation.id, { text: "hi", authorName: "Grace" })).toMatchObject({
      ok: false,
      code: "not_in_handoff",
      status: "bot",
    });
    await requestHandoff(widget, conversation);
    const reply = await agentReply(accountId, conversation.id, { text: "Hi, Grace here", authorName: "Grace" });
    expect(reply).toMatchObject({
      ok: true,
      conversation: { status: "handoff_active" },
      message: { author: "agent", authorName: "Grace" },
    });
    const other = await createAccount();
    expect(await agentReply(other.accountId, conversation.id, { text: "x", authorName: null })).toEqual({
      ok: false,
      code: "not_found",
      message: "This conversation does not exist.",
    });
  });

  it("stores 20 concurrent agent replies, each once, in the order of their seq", async () => {
    const { accountId, widget, conversation } = await started();
    await requestHandoff(widget, conversation);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        agentReply(accountId, conversation.id, { text: `reply ${i}`, authorName: "Grace" }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const { data } = await listMessages(accountId, conversation.id, { limit: 100 });
    const replies = data.filter((m) => m.author === "agent");
    expect(replies).toHaveLength(20);
    expect(new Set(replies.map((m) => m.text)).size).toBe(20);
    expect(replies.map((m) => m.seq)).toEqual([...replies.map((m) => m.seq)].sort((a, b) => a - b));
  });

  it("closes once, announces it once, and then refuses visitor and agent messages", async () => {
    const { accountId, widget, conversation } = await started();
    await requestHandoff(widget, conversation);
    expect(await closeConversation(accountId, conversation.id, "agent")).toMatchObject({
      ok: true,
      changed: true,
      conversation: { status: "closed", closedReason: "agent" },
    });
    expect(await closeConversation(accountId, conversation.id, "agent")).toMatchObject({ ok: true, changed: false });
    expect(await postVisitorMessage(widget, conversation, "still there?")).toEqual(CLOSED);
    expect(await agentReply(accountId, conversation.id, { text: "x", authorName: null })).toMatchObject({
      ok: false,
      code: "not_in_handoff",
      status: "closed",
    });
    expect((await notificationTypes(accountId)).filter((t) => t === "conversation.closed")).toHaveLength(1);
  });

  it("is closed by the idle sweep after 24 hours without a message", async () => {
    const { accountId, conversation } = await started();
    await db.pool.query(`UPDATE conversations SET last_message_at = now() - interval '25 hours' WHERE id = $1`, [
      conversation.id,
    ]);
    expect(await closeIdleConversations()).toBeGreaterThanOrEqual(1);
    expect(await getConversation(accountId, conversation.id)).toMatchObject({ status: "closed", closedReason: "idle" });
  });

  it("creates a chat lead from the visitor's name and email, and leaves an existing lead unlinked", async () => {
    const { accountId, widget, conversation } = await started();
    const result = await leaveContact(widget, conversation, { name: "Ada", email: "Ada@Example.com" });
    if (!result.ok) throw new Error(JSON.stringify(result));
    const lead = (
      await db.pool.query(`SELECT name, email, source, conversation_id FROM leads WHERE id = $1`, [result.leadId])
    ).rows[0];
    expect(lead).toEqual({ name: "Ada", email: "ada@example.com", source: "chat", conversation_id: conversation.id });
    expect(await getConversation(accountId, conversation.id)).toMatchObject({
      leadId: result.leadId,
      visitorEmail: "ada@example.com",
    });

    const second = await startConversation(widget, session);
    const again = await leaveContact(widget, second.conversation, { name: "Mallory", email: "ada@example.com" });
    const claimed = { leadId: null, visitorName: "Mallory", visitorEmail: "ada@example.com" };
    expect(again).toMatchObject({ ok: true, leadId: null, conversation: claimed });
    expect(
      (await db.pool.query(`SELECT name, conversation_id FROM leads WHERE id = $1`, [result.leadId])).rows[0],
    ).toEqual({ name: "Ada", conversation_id: conversation.id });
    expect(await leaveContact(widget, conversation, { name: "x", email: "not-an-email" })).toMatchObject({
      ok: false,
      code: "invalid_request",
    });
  });
});
