import { beforeEach, describe, expect, it } from "vitest";
import ConversationPage from "@/app/(dashboard)/conversations/[id]/page";
import { CloseConversationButton } from "@/app/(dashboard)/conversations/[id]/_components/close-conversation-button";
import ConversationsPage from "@/app/(dashboard)/conversations/page";
import { agentReply, closeConversation } from "@/lib/conversations/agent";
import { listInbox } from "@/lib/conversations/inbox";
import { countNeedingPerson } from "@/lib/conversations/read";
import { postVisitorMessage, requestHandoff } from "@/lib/conversations/visitor";
import { db } from "@/lib/platform/db/client";
import { addMember, createAccount } from "../../support/factories";
import { signInAs, signOut } from "../../support/request-context";
import { notFoundOf, renderedText } from "../../support/rendered-text";
import { openConversation } from "./inbox-support";

/* The inbox's lists and pages: tabs by status, newest activity first, paging, and who sees what. */

const conversationPage = (id: string) => ConversationPage({ params: Promise.resolve({ id }) });
const inboxPage = (params: Record<string, string>) => ConversationsPage({ searchParams: Promise.resolve(params) });

/** Whether a server component's element tree contains an element of `type` (a component function). */
function contains(tree: unknown, type: unknown, seen = new Set<unknown>()): boolean {
  if (!tree || typeof tree !== "object" || seen.has(tree)) return false;
  seen.add(tree);
  if ((tree as { type?: unknown }).type === type) return true;
  return Object.values(tree).some((value) => contains(value, type, seen));
}

beforeEach(() => signOut());

describe("the inbox list", () => {
  it("lists each tab's conversations, latest activity first, with the first question and the last line", async () => {
    const owner = await createAccount();
    const older = await openConversation(owner.accountId, "bot");
    await postVisitorMessage(older.widget, older.conversation, "first question");
    await requestHandoff(older.widget, older.conversation);
    const newer = await openConversation(owner.accountId);
    const active = await openConversation(owner.accountId);
    await agentReply(owner.accountId, active.conversation.id, { text: "On it", authorName: "Grace" });
    const bot = await openConversation(owner.accountId, "bot");
    await postVisitorMessage(older.widget, older.conversation, "still waiting");
    const other = await createAccount("Mallory");
    await openConversation(other.accountId);

    const needing = await listInbox(owner.accountId, { status: "handoff_requested", limit: 10 });
    expect(needing.data.map((item) => item.conversation.id)).toEqual([older.conversation.id, newer.conversation.id]);
    expect(needing.data[0]).toMatchObject({
      firstQuestion: { author: "visitor", text: "first question" },
      lastMessage: { author: "visitor", text: "still waiting" },
    });
    expect(needing.data[1]).toMatchObject({ firstQuestion: null, lastMessage: { author: "assistant" } });
    expect(
      (await listInbox(owner.accountId, { status: "handoff_active", limit: 10 })).data.map((item) => item.lastMessage),
    ).toMatchObject([{ author: "agent", text: "On it" }]);
    expect(
      (await listInbox(owner.accountId, { status: "bot", limit: 10 })).data.map((item) => item.conversation.id),
    ).toEqual([bot.conversation.id]);
    expect(await countNeedingPerson(owner.accountId)).toBe(2);
  });

  it("pages by cursor without repeating or skipping, and shows page one for a cursor it did not issue", async () => {
    const owner = await createAccount();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await openConversation(owner.accountId, "bot")).conversation.id);
    const first = await listInbox(owner.accountId, { status: "bot", limit: 2 });
    const second = await listInbox(owner.accountId, { status: "bot", limit: 2, cursor: first.nextCursor });
    const third = await listInbox(owner.accountId, { status: "bot", limit: 2, cursor: second.nextCursor });
    expect([...first.data, ...second.data, ...third.data].map((item) => item.conversation.id)).toEqual(
      [...ids].reverse(),
    );
    expect(third.nextCursor).toBeNull();
    expect(
      (await listInbox(owner.accountId, { status: "bot", limit: 2, cursor: "forged" })).data.map(
        (item) => item.conversation.id,
      ),
    ).toEqual(first.data.map((item) => item.conversation.id));
  });

  it("renders the tab named in the URL, and only this account's conversations", async () => {
    const owner = await createAccount();
    const { widget, conversation } = await openConversation(owner.accountId);
    await postVisitorMessage(widget, conversation, "need help with tickets");
    const other = await createAccount("Mallory");
    const theirs = await openConversation(other.accountId);
    await signInAs(owner.user);

    const needing = renderedText(await inboxPage({ tab: "needs-person" }));
    expect(needing).toContain(conversation.id);
    expect(needing).toContain('"topic":"need help with tickets"');
    expect(needing).not.toContain(theirs.conversation.id);
    const closed = renderedText(await inboxPage({ tab: "closed" }));
    expect(closed).not.toContain(conversation.id);
    expect(closed).toContain('"current":"closed"');
  });
});

describe("the conversation page", () => {
  it("is not found for another account's conversation", async () => {
    const victim = await createAccount();
    const { conversation } = await openConversation(victim.accountId);
    await signInAs((await createAccount("Mallory")).user);
    expect(await notFoundOf(() => conversationPage(conversation.id))).toBe(true);
    expect(await notFoundOf(() => conversationPage("conv_unknown"))).toBe(true);
  });

  it("gives owners the reply box and the close button, and members neither", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    await signInAs(owner.user);
    const ownersView = await conversationPage(conversation.id);
    expect(renderedText(ownersView)).toContain('"canReply":true');
    expect(contains(ownersView, CloseConversationButton)).toBe(true);

    await signInAs(await addMember(owner.accountId, "member"));
    const membersView = await conversationPage(conversation.id);
    expect(renderedText(membersView)).toContain('"canReply":false');
    expect(contains(membersView, CloseConversationButton)).toBe(false);
  });

  it("offers no close button once the conversation is closed, and links the visitor's lead", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    const lead = await db.prisma.lead.create({
      data: {
        id: "lead_0123456789abcdefghijkl",
        accountId: owner.accountId,
        name: "Ada Visitor",
        stage: "new",
        source: "chat",
      },
    });
    await db.pool.query(`UPDATE conversations SET lead_id = $2 WHERE id = $1`, [conversation.id, lead.id]);
    await closeConversation(owner.accountId, conversation.id, "agent");
    await signInAs(owner.user);

    const view = await conversationPage(conversation.id);
    expect(contains(view, CloseConversationButton)).toBe(false);
    expect(renderedText(view)).toContain(`"lead":{"id":"${lead.id}","name":"Ada Visitor"}`);
  });
});
