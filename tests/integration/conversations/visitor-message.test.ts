import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { leaveContact } from "@/lib/conversations/contact";
import { serializeMessage } from "@/lib/conversations/model";
import { getConversation, listMessages } from "@/lib/conversations/read";
import { postVisitorMessage, requestHandoff, startConversation } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { createAccount } from "../../support/factories";

const CLOSED = {
  ok: false,
  code: "conversation_closed",
  message: "This conversation is closed. Start a new conversation.",
};

/* A visitor's message written by one statement (lib/conversations/visitor-message.ts): what it stores and announces. */

const session = { pageUrl: null, referrer: null, userAgent: "test", locale: "en-GB" };

async function started() {
  const { accountId } = await createAccount();
  const widget = await getOrCreateWidget(accountId);
  const { conversation } = await startConversation(widget, session);
  return { accountId, widget, conversation };
}

const announced = async (accountId: string) =>
  (
    await db.pool.query<{ id: string; payload: { id: string; type: string; data: unknown } }>(
      `SELECT id, payload FROM outbound_messages WHERE account_id = $1 AND type = 'message.created'
        ORDER BY created_at, id`,
      [accountId],
    )
  ).rows;

describe("a visitor's message", () => {
  it("is stored with the assistant's answer, moves last_message_at, and is announced as the API shows it", async () => {
    const { accountId, widget, conversation } = await started();
    const text = `<script>alert("x")</script> & anything "tonight"?`;
    const result = await postVisitorMessage(widget, conversation, text);
    if (!result.ok) throw new Error("closed");
    expect(result.messages.map((m) => [m.author, m.authorName])).toEqual([
      ["visitor", null],
      ["assistant", widget.assistantName],
    ]);
    expect(result.messages[1]!.seq).toBeGreaterThan(result.messages[0]!.seq);
    const stored = await listMessages(accountId, conversation.id, { limit: 10 });
    expect(stored.data.slice(1)).toEqual(result.messages);
    expect(result.conversation).toEqual(await getConversation(accountId, conversation.id));
    expect(result.conversation.lastMessageAt.getTime()).toBeGreaterThanOrEqual(result.messages[0]!.createdAt.getTime());

    // Only the visitor's line is announced; the payload is the one receivers get.
    const rows = await announced(accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toEqual({
      id: rows[0]!.id,
      type: "message.created",
      created_at: expect.stringMatching(/Z$/),
      data: serializeMessage(result.messages[0]!),
    });
  });

  it("carries the visitor's name once they left it", async () => {
    const { widget, conversation } = await started();
    await leaveContact(widget, conversation, { name: "Ada", email: "ada@example.com" });
    const result = await postVisitorMessage(widget, conversation, "any concerts?");
    expect(result.ok && result.messages[0]).toMatchObject({ author: "visitor", authorName: "Ada" });
  });

  it("gets no answer when the conversation was handed to a person after the visitor's page last saw it", async () => {
    const { accountId, widget, conversation } = await started();
    await requestHandoff(widget, conversation);
    // `conversation` still says bot: the assistant's answer is computed, then dropped by the write.
    const result = await postVisitorMessage(widget, conversation, "what's on this weekend?");
    expect(result.ok && result.messages.map((m) => m.author)).toEqual(["visitor"]);
    expect(result.ok && result.conversation.status).toBe("handoff_requested");
    expect((await listMessages(accountId, conversation.id, { limit: 10 })).data.map((m) => m.author)).toEqual([
      "assistant",
      "system",
      "visitor",
    ]);
  });

  it("stores and announces nothing for a closed conversation, or one of another account", async () => {
    const { accountId, widget, conversation } = await started();
    await db.pool.query(`UPDATE conversations SET status = 'closed', closed_at = now() WHERE id = $1`, [
      conversation.id,
    ]);
    expect(await postVisitorMessage(widget, conversation, "hello?")).toEqual(CLOSED);
    expect((await listMessages(accountId, conversation.id, { limit: 10 })).data).toHaveLength(1);
    // An open conversation, written to with another account's widget.
    const open = await started();
    const other = await started();
    expect(await postVisitorMessage(other.widget, open.conversation, "hello?")).toEqual(CLOSED);
    expect((await listMessages(open.accountId, open.conversation.id, { limit: 10 })).data).toHaveLength(1);
    for (const id of [accountId, open.accountId, other.accountId]) expect(await announced(id)).toHaveLength(0);
  });

  it("keeps 20 concurrent messages of one conversation in order, each with its answer right after it", async () => {
    const { accountId, widget, conversation } = await started();
    await Promise.all(Array.from({ length: 20 }, (_, i) => postVisitorMessage(widget, conversation, `question ${i}`)));
    const { data } = await listMessages(accountId, conversation.id, { limit: 100 });
    const lines = data.slice(1);
    expect(lines).toHaveLength(40);
    for (let i = 0; i < 40; i += 2) expect([lines[i]!.author, lines[i + 1]!.author]).toEqual(["visitor", "assistant"]);
    expect(await announced(accountId)).toHaveLength(20);
  });
});
