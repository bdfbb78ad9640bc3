import { describe, expect, it } from "vitest";
import ConversationsPage from "@/app/(dashboard)/conversations/page";
import { agentReply } from "@/lib/conversations/agent";
import { leaveContact } from "@/lib/conversations/contact";
import { listInbox } from "@/lib/conversations/inbox";
import { searchText } from "@/lib/conversations/inbox-search";
import { postVisitorMessage } from "@/lib/conversations/visitor";
import { db } from "@/lib/platform/db/client";
import { createAccount } from "../../support/factories";
import { signInAs } from "../../support/request-context";
import { renderedText } from "../../support/rendered-text";
import { openConversation } from "./inbox-support";

/* The inbox's search: the visitor's name or email, or what the visitor and the team wrote; one account only. */

async function seeded() {
  const owner = await createAccount();
  const ada = await openConversation(owner.accountId);
  await leaveContact(ada.widget, ada.conversation, { name: "Ada Lovelace", email: "ada@analytical.example" });
  const grace = await openConversation(owner.accountId, "bot");
  await postVisitorMessage(grace.widget, grace.conversation, "Is there wheelchair access at the Old Mill?");
  const linus = await openConversation(owner.accountId);
  await agentReply(owner.accountId, linus.conversation.id, { text: "Your refund is on its way.", authorName: "Rosa" });
  return { owner, ada: ada.conversation.id, grace: grace.conversation.id, linus: linus.conversation.id };
}

const found = async (accountId: string, status: "handoff_requested" | "handoff_active" | "bot", search: string) =>
  (await listInbox(accountId, { status, limit: 25, search })).data.map((item) => item.conversation.id);

describe("searching the inbox", () => {
  it("finds a conversation by the visitor's name or email, in any case, and by part of a word", async () => {
    const { owner, ada } = await seeded();
    expect(await found(owner.accountId, "handoff_requested", "lovelace")).toEqual([ada]);
    expect(await found(owner.accountId, "handoff_requested", "ADA@ANALYTICAL")).toEqual([ada]);
    expect(await found(owner.accountId, "handoff_requested", "ovela")).toEqual([ada]);
  });

  it("finds a conversation by what the visitor or the team wrote, within the open tab", async () => {
    const { owner, grace, linus } = await seeded();
    expect(await found(owner.accountId, "bot", "wheelchair")).toEqual([grace]);
    expect(await found(owner.accountId, "handoff_requested", "wheelchair")).toEqual([]);
    expect(await found(owner.accountId, "handoff_active", "refund")).toEqual([linus]);
  });

  it("does not search the assistant's answers or system lines", async () => {
    const { owner } = await seeded();
    // The assistant's greeting and the handoff note are in every conversation.
    expect(await found(owner.accountId, "handoff_requested", "Someone from the team")).toEqual([]);
    expect(await found(owner.accountId, "bot", "Ask me about upcoming events")).toEqual([]);
  });

  it("never shows another account's conversations, even when they match", async () => {
    const { owner, ada } = await seeded();
    const other = await createAccount();
    const theirs = await openConversation(other.accountId);
    await leaveContact(theirs.widget, theirs.conversation, { name: "Ada Lovelace", email: "ada@analytical.example" });
    expect(await found(owner.accountId, "handoff_requested", "Lovelace")).toEqual([ada]);
    expect(await found(other.accountId, "handoff_requested", "Lovelace")).toEqual([theirs.conversation.id]);
  });

  it("takes % and _ literally, and trims and shortens what was typed", async () => {
    const { owner } = await seeded();
    expect(await found(owner.accountId, "handoff_requested", "%")).toEqual([]);
    expect(await found(owner.accountId, "handoff_requested", "_")).toEqual([]);
    expect(searchText("   ")).toBeNull();
    expect(searchText("  ada   lovelace ")).toBe("ada lovelace");
    expect([...(searchText("x".repeat(500)) ?? "")]).toHaveLength(100);
  });

  it("keeps the search in the page, its tabs and its paging links, and says when nothing matches", async () => {
    const { owner } = await seeded();
    await signInAs(owner.user);
    const page = renderedText(
      await ConversationsPage({ searchParams: Promise.resolve({ tab: "needs-person", q: "Lovelace" }) }),
    );
    expect(page).toContain("Ada Lovelace");
    expect(page).toContain("/conversations?tab=closed&q=Lovelace");
    const none = renderedText(
      await ConversationsPage({ searchParams: Promise.resolve({ tab: "needs-person", q: "nobody-like-this" }) }),
    );
    expect(none).not.toContain("Ada Lovelace");
    // The empty state is given the search, to say that nothing matches it.
    expect(none).toContain('"search":"nobody-like-this"');
  });

  it("uses the trigram indexes rather than reading every row", async () => {
    const plan = async (sqlText: string) =>
      (await db.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sqlText}`)).rows
        .map((row) => row["QUERY PLAN"])
        .join("\n");
    await db.pool.query("SET enable_seqscan = off");
    try {
      expect(
        await plan(
          `SELECT id FROM conversations
           WHERE (coalesce(visitor_name, '') || E'\\n' || coalesce(visitor_email, '')) ILIKE '%lovelace%'`,
        ),
      ).toContain("conversations_visitor_search_trgm_idx");
      expect(
        await plan(
          `SELECT conversation_id FROM conversation_messages
           WHERE author IN ('visitor', 'agent') AND text ILIKE '%refund%'`,
        ),
      ).toContain("conversation_messages_text_trgm_idx");
    } finally {
      await db.pool.query("RESET enable_seqscan");
    }
  });
});
