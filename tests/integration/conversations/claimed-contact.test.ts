import { beforeEach, describe, expect, it } from "vitest";
import ConversationPage from "@/app/(dashboard)/conversations/[id]/page";
import { linkConversationToLeadAction } from "@/app/(dashboard)/conversations/actions";
import ConversationsPage from "@/app/(dashboard)/conversations/page";
import { MANAGERS_ONLY } from "@/lib/actions/action";
import { listInbox } from "@/lib/conversations/inbox";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";
import { createLead } from "@/lib/leads/create";
import { createLeadSchema } from "@/lib/leads/schemas";
import { addMember, createAccount, type TestAccount } from "../../support/factories";
import { signInAs, signOut } from "../../support/request-context";
import { renderedText } from "../../support/rendered-text";
import { json, randomIp, visitor } from "../../support/visitor-chat";
import { api, conversationKey, notifications } from "./api-client";

/*
 * A visitor's name and email are their word, not proof (docs/conversations.md, "Leads from the chat"):
 * an email that belongs to a lead is kept on the conversation as a claim, shown "not verified", and
 * linked only when an agent presses "Link to lead". An email of no lead still makes a chat lead.
 */

const leadRow = async (id: string) => (await db.pool.query(`SELECT * FROM leads WHERE id = $1`, [id])).rows[0];
const conversationRow = async (id: string) =>
  (
    await db.pool.query<{ lead_id: string | null; visitor_name: string | null; visitor_email: string | null }>(
      `SELECT lead_id, visitor_name, visitor_email FROM conversations WHERE id = $1`,
      [id],
    )
  ).rows[0];
const linkAudits = (accountId: string) =>
  db.prisma.auditLog.findMany({ where: { accountId, action: "conversation.lead_linked" } });

/** A lead the team made: no name and no conversation, the blanks the old automatic link filled. */
async function existingLead(accountId: string, email: string) {
  const fields = createLeadSchema.parse({ email, company: "Analytical Engines", source: "dashboard" });
  const created = await createLead({ accountId, actor: { type: "system" } }, fields);
  if (!created.ok) throw new Error(JSON.stringify(created));
  return created.lead;
}

/** A visitor chats on the account's widget and leaves a name and email, through the chat's endpoints. */
async function visitorLeaves(owner: TestAccount, contact: { name: string; email: string }) {
  const widget = await getOrCreateWidget(owner.accountId);
  const ip = randomIp();
  const started = await json(await visitor.start(widget.id, { ip, body: { text: "Any concerts this weekend?" } }));
  const conversationId = started.conversation.id;
  const call = { ip, token: started.visitor_token, body: contact };
  const response = await visitor.contact(widget.id, conversationId, call);
  return { conversationId, status: response.status, answer: await json(response) };
}

beforeEach(() => signOut());

describe("a visitor who leaves an existing lead's email", () => {
  it("is not linked to the lead, leaves the lead untouched and keeps the claim on the conversation", async () => {
    const owner = await createAccount();
    const lead = await existingLead(owner.accountId, "ada@example.com");
    const before = await leadRow(lead.id);

    const left = await visitorLeaves(owner, { name: "Mallory", email: "ADA@example.com" });
    const { conversationId, status, answer } = left;

    // The visitor's answer is the one any email gets: it does not tell whether a lead has it.
    expect(status).toBe(200);
    expect(answer.conversation.contact_left).toBe(true);
    const thanks = "Thanks, Mallory. The team can reach you at ada@example.com.";
    expect(answer.messages.map((m) => [m.author, m.text])).toEqual([["system", thanks]]);
    expect(await leadRow(lead.id)).toEqual(before);
    const claim = { lead_id: null, visitor_name: "Mallory", visitor_email: "ada@example.com" };
    expect(await conversationRow(conversationId)).toEqual(claim);
    expect(await notifications(owner.accountId, "lead.updated")).toEqual([]);
  });

  it("answers the API with the claimed contact, not verified, and no lead_id", async () => {
    const owner = await createAccount();
    await existingLead(owner.accountId, "ada@example.com");
    const { conversationId } = await visitorLeaves(owner, { name: "Mallory", email: "ada@example.com" });

    const body = await (await api.get(await conversationKey(owner, ["read:conversations"]), conversationId)).json();
    const contact = { name: "Mallory", email: "ada@example.com", verified: false };
    expect(body).toMatchObject({ lead_id: null, contact });
  });

  it("shows in the inbox list and on the conversation page as not verified, with the lead of that email", async () => {
    const owner = await createAccount();
    const lead = await existingLead(owner.accountId, "ada@example.com");
    const { conversationId } = await visitorLeaves(owner, { name: "Mallory", email: "ada@example.com" });
    await signInAs(owner.user);

    const inbox = await listInbox(owner.accountId, { status: "bot", limit: 10 });
    const matchingLead = { id: lead.id, name: "ada@example.com" };
    expect(inbox.data).toMatchObject([{ conversation: { id: conversationId, leadId: null }, matchingLead }]);
    const list = renderedText(await ConversationsPage({ searchParams: Promise.resolve({ tab: "assistant" }) }));
    expect(list).toContain(`"visitor":"Mallory","email":"ada@example.com","claimed":true,"leadExists":true`);

    const page = renderedText(await ConversationPage({ params: Promise.resolve({ id: conversationId }) }));
    expect(page).toContain(`"lead":null,"matchingLead":{"id":"${lead.id}","name":"ada@example.com"},"canLink":true`);
  });
});

describe("Link to lead", () => {
  it("links the conversation and the lead as the chat once did, announces lead.updated, records who", async () => {
    const owner = await createAccount();
    const lead = await existingLead(owner.accountId, "ada@example.com");
    const { conversationId } = await visitorLeaves(owner, { name: "Ada", email: "ada@example.com" });
    await signInAs(owner.user);

    const link = () => linkConversationToLeadAction({ conversationId, leadId: lead.id });
    expect(await link()).toEqual({ ok: true, data: { message: "Linked to ada@example.com." } });
    expect((await conversationRow(conversationId))?.lead_id).toBe(lead.id);
    // Only the link: the claimed name stays the visitor's word and does not fill the lead's blank.
    const untouched = { name: null, company: "Analytical Engines" };
    expect(await leadRow(lead.id)).toMatchObject({ conversation_id: conversationId, ...untouched });
    const updated = await notifications(owner.accountId, "lead.updated");
    expect(updated.map((row) => row.payload.data)).toMatchObject([{ id: lead.id, conversation_id: conversationId }]);
    const audits = await linkAudits(owner.accountId);
    expect(audits).toMatchObject([
      {
        actorId: owner.user.id,
        targetType: "conversation",
        targetId: conversationId,
        targetLabel: "Ada",
        metadata: { leadId: lead.id, lead: "ada@example.com" },
      },
    ]);

    // The page now shows the linked lead and no longer offers the link; a second click changes nothing.
    const page = renderedText(await ConversationPage({ params: Promise.resolve({ id: conversationId }) }));
    expect(page).toContain(`"lead":{"id":"${lead.id}","name":"ada@example.com"},"matchingLead":null`);
    expect(await link()).toEqual({ ok: true, data: { message: "Already linked to ada@example.com." } });
    expect(await linkAudits(owner.accountId)).toHaveLength(1);
    expect(await notifications(owner.accountId, "lead.updated")).toHaveLength(1);
  });

  it("keeps a lead's link to another conversation, as the chat did, and links this conversation to it", async () => {
    const owner = await createAccount();
    const lead = await existingLead(owner.accountId, "ada@example.com");
    const first = await visitorLeaves(owner, { name: "Ada", email: "ada@example.com" });
    const second = await visitorLeaves(owner, { name: "Ada", email: "ada@example.com" });
    await signInAs(owner.user);

    const link = (conversationId: string) => linkConversationToLeadAction({ conversationId, leadId: lead.id });
    expect((await link(first.conversationId)).ok).toBe(true);
    expect((await link(second.conversationId)).ok).toBe(true);
    expect((await conversationRow(second.conversationId))?.lead_id).toBe(lead.id);
    expect((await leadRow(lead.id)).conversation_id).toBe(first.conversationId);
    expect(await notifications(owner.accountId, "lead.updated")).toHaveLength(1);
    expect(await linkAudits(owner.accountId)).toHaveLength(2);
  });

  it("refuses a member, a lead without the claimed email and another account's conversation", async () => {
    const owner = await createAccount();
    const lead = await existingLead(owner.accountId, "ada@example.com");
    const otherLead = await existingLead(owner.accountId, "grace@example.com");
    const { conversationId } = await visitorLeaves(owner, { name: "Ada", email: "ada@example.com" });
    const before = await leadRow(lead.id);

    await signInAs(await addMember(owner.accountId, "member"));
    const link = (leadId: string) => linkConversationToLeadAction({ conversationId, leadId });
    expect(await link(lead.id)).toEqual({ ok: false, error: MANAGERS_ONLY });

    await signInAs(owner.user);
    expect(await link(otherLead.id)).toEqual({
      ok: false,
      error: "No lead has the email this visitor left any more. Reload the page.",
    });

    // A crafted id (a NUL reaches PostgreSQL as an error) is refused before any query.
    expect(await link("lead_\u0000")).toMatchObject({ ok: false });

    await signInAs((await createAccount("Mallory")).user);
    expect(await link(lead.id)).toEqual({ ok: false, error: "This conversation no longer exists." });

    expect(await leadRow(lead.id)).toEqual(before);
    expect((await conversationRow(conversationId))?.lead_id).toBeNull();
    expect(await linkAudits(owner.accountId)).toEqual([]);
  });
});

describe("a visitor who leaves an email of no lead", () => {
  it("cannot move a link an agent made by leaving another email afterwards", async () => {
    const owner = await createAccount();
    const lead = await existingLead(owner.accountId, "ada@example.com");
    const widget = await getOrCreateWidget(owner.accountId);
    const ip = randomIp();
    const started = await json(await visitor.start(widget.id, { ip, body: { text: "Hello" } }));
    const conversationId = started.conversation.id;
    const leave = (email: string) =>
      visitor.contact(widget.id, conversationId, { ip, token: started.visitor_token, body: { name: "Ada", email } });
    await leave("ada@example.com");
    await signInAs(owner.user);
    expect(await linkConversationToLeadAction({ conversationId, leadId: lead.id })).toMatchObject({ ok: true });

    expect((await leave("someone.else@example.com")).status).toBeLessThan(300);
    expect((await conversationRow(conversationId))?.lead_id).toBe(lead.id);
    expect(await leadRow(lead.id)).toMatchObject({ conversation_id: conversationId });
    const made = await db.pool.query(
      "SELECT conversation_id FROM leads WHERE account_id = $1 AND email = 'someone.else@example.com'",
      [owner.accountId],
    );
    expect(made.rows).toEqual([{ conversation_id: null }]);
  });

  it("still gets a chat lead linked to the conversation, with nothing for an agent to link", async () => {
    const owner = await createAccount();
    await existingLead(owner.accountId, "grace@example.com");
    const { conversationId, answer } = await visitorLeaves(owner, { name: "Ada", email: "Ada@Example.com" });
    expect(answer.conversation.contact_left).toBe(true);

    const chatLeads = `SELECT id, name, email, source, conversation_id FROM leads
      WHERE account_id = $1 AND source = 'chat'`;
    const lead = (await db.pool.query(chatLeads, [owner.accountId])).rows;
    const made = { name: "Ada", email: "ada@example.com", source: "chat", conversation_id: conversationId };
    expect(lead).toEqual([{ id: expect.any(String), ...made }]);
    expect((await conversationRow(conversationId))?.lead_id).toBe(lead[0].id);
    const inbox = await listInbox(owner.accountId, { status: "bot", limit: 10 });
    expect(inbox.data).toMatchObject([{ matchingLead: null }]);
  });
});
