import { beforeEach, describe, expect, it } from "vitest";
import { closeConversationAction, replyToConversationAction } from "@/app/(dashboard)/conversations/actions";
import { MANAGERS_ONLY, SESSION_ENDED } from "@/lib/actions/action";
import { closeConversation } from "@/lib/conversations/agent";
import { MAX_MESSAGE_LENGTH } from "@/lib/conversations/text";
import { db } from "@/lib/platform/db/client";
import { addMember, createAccount } from "../../support/factories";
import { signInAs, signOut } from "../../support/request-context";
import { messagesOf, openConversation, statusOf } from "./inbox-support";

/*
 * The inbox's server actions against the real database: who may reply and close, what is stored, the
 * refusals a person reads, and the audit entry of a close.
 */

const closeAudits = (accountId: string) =>
  db.prisma.auditLog.findMany({ where: { accountId, action: "conversation.closed" } });

beforeEach(() => signOut());

describe("replying from the inbox", () => {
  it("stores an admin's reply under the admin's name and makes the conversation active", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    await signInAs(await addMember(owner.accountId, "admin", "Grace Hopper"));

    const result = await replyToConversationAction({
      conversationId: conversation.id,
      text: "  Hi, Grace here. <b>How can I help?</b>  ",
    });
    expect(result).toMatchObject({
      ok: true,
      data: { message: { author: "agent", name: "Grace Hopper", text: "Hi, Grace here. <b>How can I help?</b>" } },
    });
    expect((await messagesOf(conversation.id)).at(-1)).toEqual({
      author: "agent",
      author_name: "Grace Hopper",
      text: "Hi, Grace here. <b>How can I help?</b>",
    });
    expect(await statusOf(conversation.id)).toBe("handoff_active");
  });

  it("refuses a member's reply and stores nothing", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    const before = await messagesOf(conversation.id);
    await signInAs(await addMember(owner.accountId, "member"));

    expect(await replyToConversationAction({ conversationId: conversation.id, text: "hello" })).toEqual({
      ok: false,
      error: MANAGERS_ONLY,
    });
    expect(await messagesOf(conversation.id)).toEqual(before);
    expect(await statusOf(conversation.id)).toBe("handoff_requested");
  });

  it("refuses a reply while the assistant handles the conversation, says why, and stores nothing", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId, "bot");
    const before = await messagesOf(conversation.id);
    await signInAs(owner.user);

    const result = await replyToConversationAction({ conversationId: conversation.id, text: "hello" });
    expect(result).toEqual({
      ok: false,
      error: "The assistant is handling this conversation. You can reply once the visitor asks for a person.",
    });
    expect(await messagesOf(conversation.id)).toEqual(before);
    expect(await statusOf(conversation.id)).toBe("bot");
  });

  it("refuses a reply to a conversation that was closed meanwhile", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    await closeConversation(owner.accountId, conversation.id, "agent");
    const before = await messagesOf(conversation.id);
    await signInAs(owner.user);

    expect(await replyToConversationAction({ conversationId: conversation.id, text: "still there?" })).toEqual({
      ok: false,
      error: "This conversation was closed, so your reply was not sent.",
    });
    expect(await messagesOf(conversation.id)).toEqual(before);
  });

  it("refuses an empty, an over-long and a binary reply with the reason, storing nothing", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    const before = await messagesOf(conversation.id);
    await signInAs(owner.user);

    for (const [text, reason] of [
      ["   ", "Write a message."],
      ["x".repeat(MAX_MESSAGE_LENGTH + 1), "A message can be at most 4,000 characters."],
      ["\u0000\u0001binary", "The message contains characters that are not text."],
      [undefined, "Write a message."],
    ] as const) {
      expect(await replyToConversationAction({ conversationId: conversation.id, text })).toEqual({
        ok: false,
        error: reason,
        fieldErrors: { text: [reason] },
      });
    }
    expect(await messagesOf(conversation.id)).toEqual(before);
  });

  it("finds no conversation of another account, and leaves it untouched", async () => {
    const victim = await createAccount();
    const { conversation } = await openConversation(victim.accountId);
    const before = await messagesOf(conversation.id);
    await signInAs((await createAccount("Mallory")).user);

    const gone = { ok: false, error: "This conversation no longer exists." };
    expect(await replyToConversationAction({ conversationId: conversation.id, text: "hi" })).toEqual(gone);
    expect(await closeConversationAction({ conversationId: conversation.id })).toEqual(gone);
    expect(await replyToConversationAction({ conversationId: "not-an-id", text: "hi" })).toEqual(gone);
    expect(await messagesOf(conversation.id)).toEqual(before);
    expect(await statusOf(conversation.id)).toBe("handoff_requested");
  });

  it("asks to sign in again when the session has ended", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    expect(await replyToConversationAction({ conversationId: conversation.id, text: "hi" })).toEqual({
      ok: false,
      error: SESSION_ENDED,
    });
    expect(await closeConversationAction({ conversationId: conversation.id })).toEqual({
      ok: false,
      error: SESSION_ENDED,
    });
  });
});

describe("closing from the inbox", () => {
  it("refuses a member and changes nothing", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    await signInAs(await addMember(owner.accountId, "member"));

    expect(await closeConversationAction({ conversationId: conversation.id })).toEqual({
      ok: false,
      error: MANAGERS_ONLY,
    });
    expect(await statusOf(conversation.id)).toBe("handoff_requested");
    expect(await closeAudits(owner.accountId)).toHaveLength(0);
  });

  it("closes with the closing line, records who closed it once, and a second close changes nothing", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId, "bot");
    await signInAs(owner.user);

    expect(await closeConversationAction({ conversationId: conversation.id })).toEqual({
      ok: true,
      data: { message: "Conversation closed." },
    });
    expect(await statusOf(conversation.id)).toBe("closed");
    expect((await messagesOf(conversation.id)).at(-1)).toMatchObject({ author: "system" });
    const audits = await closeAudits(owner.accountId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: owner.user.id,
      targetType: "conversation",
      targetId: conversation.id,
      targetLabel: "Visitor",
    });

    expect(await closeConversationAction({ conversationId: conversation.id })).toEqual({
      ok: true,
      data: { message: "This conversation was already closed." },
    });
    expect(await closeAudits(owner.accountId)).toHaveLength(1);
  });
});
