import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { agentReply } from "@/lib/conversations/agent";
import { getConversation } from "@/lib/conversations/read";
import { startConversation } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { createAccount } from "../../support/factories";
import { json, randomIp, startedChat, visitor } from "../../support/visitor-chat";

/* The chat page's endpoints, called as Next calls them, against the real database. */

const conversationsOf = async (accountId: string) =>
  (await db.pool.query<{ id: string }>(`SELECT id FROM conversations WHERE account_id = $1`, [accountId])).rows;

describe("starting a conversation", () => {
  it("stores nothing until the visitor writes, then answers 201 with token, greeting, message and reply", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    expect(await conversationsOf(accountId)).toEqual([]);

    const response = await visitor.start(widget.id, { ip: randomIp(), body: { text: "Anything on this weekend?" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await json(response);
    expect(body.conversation).toMatchObject({ status: "bot", contact_left: false });
    expect(body.conversation.id).toMatch(/^conv_/);
    expect(body.visitor_token).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(body.messages.map((m) => [m.author, m.author_name])).toEqual([
      ["assistant", widget.assistantName],
      ["visitor", null],
      ["assistant", widget.assistantName],
    ]);
    expect(body.messages[0]!.text).toBe(widget.greeting);
    expect(body.messages[1]!.text).toBe("Anything on this weekend?");
    expect(body.messages.map((m) => m.seq)).toEqual([...body.messages.map((m) => m.seq)].sort((a, b) => a - b));
    expect(await conversationsOf(accountId)).toHaveLength(1);
  });

  it('starts straight in handoff when the first thing the visitor does is press "Talk to a person"', async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const body = await json(await visitor.start(widget.id, { ip: randomIp(), body: { handoff: true } }));
    expect(body.conversation.status).toBe("handoff_requested");
    expect(body.messages.map((m) => m.author)).toEqual(["assistant", "system"]);
  });

  it("refuses a start with neither a message nor a handoff request, storing nothing", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const response = await visitor.start(widget.id, { ip: randomIp(), body: { page_url: "https://example.com/" } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("invalid_request");
    expect(await conversationsOf(accountId)).toEqual([]);
  });

  it("keeps only the origin and path of http(s) page URLs and the referrer, and drops anything else", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const startWith = async (body: Record<string, unknown>) =>
      json(await visitor.start(widget.id, { ip: randomIp(), body: { text: "hi", ...body } }));
    const first = await startWith({
      page_url: "https://user:pw@shop.example.com/events?x=1",
      referrer: "javascript:alert(1)",
      locale: "de-CH",
    });
    const stored = (await getConversation(accountId, first.conversation.id))!;
    expect(stored).toMatchObject({
      pageUrl: "https://shop.example.com/events",
      referrer: null,
      locale: "de-CH",
      userAgent: "VisitorTest/1.0",
    });
    // A hostile page can send anything: the query, the fragment and credentials never reach the inbox.
    const third = await startWith({
      page_url: "https://shop.example.com/checkout/?reset_token=s3cret&utm=x#access_token=t0ken",
      referrer: "http://me:hunter2@mail.example/inbox?msg=42#read",
    });
    const sql = "SELECT page_url, referrer FROM conversations WHERE id = $1";
    const row = await db.pool.query(sql, [third.conversation.id]);
    expect(row.rows[0]).toEqual({
      page_url: "https://shop.example.com/checkout/",
      referrer: "http://mail.example/inbox",
    });
    const second = await startWith({ page_url: `https://example.com/${"a".repeat(3000)}`, locale: "<script>" });
    expect(await getConversation(accountId, second.conversation.id)).toMatchObject({ pageUrl: null, locale: null });
  });
});

describe("session data stored before only the origin and path were kept", () => {
  it("loses its query and fragment in the migration, and keeps everything else", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const session = (pageUrl: string | null, referrer: string | null) => ({
      pageUrl,
      referrer,
      userAgent: "old",
      locale: "en",
    });
    const old = await startConversation(
      widget,
      session("https://shop.example.com/a/?t=1#x", "https://search.ex/?q=me"),
    );
    const clean = await startConversation(widget, session("https://shop.example.com/b", null));
    const migrations = path.join(import.meta.dirname, "../../../prisma/migrations");
    const migration = path.join(migrations, "20261126171208_conversation_urls_origin_and_path_i8/migration.sql");
    // A stored notification of such a conversation (listed by webhook-events, sent again by a replay).
    const data = {
      id: old.conversation.id,
      page_url: "https://shop.example.com/a/?t=1#x",
      referrer: null,
      user_agent: "old",
    };
    const notified = await db.pool.query<{ id: string }>(
      `INSERT INTO outbound_messages (id, account_id, type, payload) SELECT m.id, $1, 'conversation.started',
         jsonb_build_object('id', m.id, 'type', 'conversation.started', 'data', $2::jsonb)
           FROM (SELECT outbound_public_id('whmsg_') AS id) m RETURNING id`,
      [accountId, JSON.stringify(data)],
    );
    await db.pool.query(fs.readFileSync(migration, "utf8"));
    const payload = (await db.pool.query("SELECT payload FROM outbound_messages WHERE id = $1", [notified.rows[0].id]))
      .rows[0].payload;
    expect(payload.data).toEqual({ ...data, page_url: "https://shop.example.com/a/" });
    expect(await getConversation(accountId, old.conversation.id)).toMatchObject({
      pageUrl: "https://shop.example.com/a/",
      referrer: "https://search.ex/",
      userAgent: "old",
    });
    const unchanged = await getConversation(accountId, clean.conversation.id);
    expect(unchanged).toMatchObject({ pageUrl: "https://shop.example.com/b", referrer: null });
  });
});

describe("a visitor's conversation", () => {
  it("answers a message with the assistant's reply, and a request for a human with the handoff notice", async () => {
    const { widget, ip, conversationId, token } = await startedChat();
    const reply = await json(
      await visitor.send(widget.id, conversationId, { ip, token, body: { text: "concerts tomorrow?" } }),
    );
    expect(reply.messages.map((m) => m.author)).toEqual(["visitor", "assistant"]);

    const asked = await json(
      await visitor.send(widget.id, conversationId, { ip, token, body: { text: "Can I talk to a human please?" } }),
    );
    expect(asked.conversation.status).toBe("handoff_requested");
    expect(asked.messages.map((m) => m.author)).toEqual(["visitor", "system"]);

    const later = await visitor.send(widget.id, conversationId, { ip, token, body: { text: "hello?" } });
    expect(later.status).toBe(201);
    expect((await json(later)).messages.map((m) => m.author)).toEqual(["visitor"]);
  });

  it('moves to handoff with the "Talk to a person" button, once: pressing it again adds nothing', async () => {
    const { widget, ip, conversationId, token } = await startedChat();
    const first = await visitor.handoff(widget.id, conversationId, { ip, token });
    expect(first.status).toBe(200);
    const body = await json(first);
    expect(body.conversation.status).toBe("handoff_requested");
    expect(body.messages.map((m) => [m.author, m.text])).toEqual([
      ["system", expect.stringContaining("talk to a person")],
    ]);
    const again = await json(await visitor.handoff(widget.id, conversationId, { ip, token }));
    expect(again).toMatchObject({ conversation: { status: "handoff_requested" }, messages: [] });
  });

  it("polls the status and only the messages after the given seq, the agent's with their name", async () => {
    const { accountId, widget, ip, conversationId, token, started } = await startedChat();
    const lastSeen = Math.max(...started.messages.map((m) => m.seq));
    const idle = await json(await visitor.poll(widget.id, conversationId, { ip, token, query: `?after=${lastSeen}` }));
    expect(idle).toEqual({
      conversation: { id: conversationId, status: "bot", contact_left: false },
      messages: [],
      has_more: false,
    });

    await visitor.handoff(widget.id, conversationId, { ip, token });
    await agentReply(accountId, conversationId, { text: "Hi, Grace here.", authorName: "Grace" });
    const polled = await json(
      await visitor.poll(widget.id, conversationId, { ip, token, query: `?after=${lastSeen}` }),
    );
    expect(polled.conversation.status).toBe("handoff_active");
    expect(polled.messages.map((m) => [m.author, m.author_name, m.text])).toEqual([
      ["system", null, expect.any(String)],
      ["agent", "Grace", "Hi, Grace here."],
    ]);
    expect(polled.messages.every((m) => m.seq > lastSeen)).toBe(true);

    const everything = await json(await visitor.poll(widget.id, conversationId, { ip, token }));
    expect(everything.messages).toHaveLength(started.messages.length + 2);
    expect((await visitor.poll(widget.id, conversationId, { ip, token, query: "?after=-1" })).status).toBe(400);
  });

  it("turns name and email into a chat lead linked to the conversation", async () => {
    const { accountId, widget, ip, conversationId, token } = await startedChat();
    const response = await visitor.contact(widget.id, conversationId, {
      ip,
      token,
      body: { name: "Ada", email: "ADA@example.com" },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.conversation.contact_left).toBe(true);
    expect(body.messages.map((m) => m.author)).toEqual(["system"]);
    const lead = await db.pool.query(`SELECT name, email, source, conversation_id FROM leads WHERE account_id = $1`, [
      accountId,
    ]);
    expect(lead.rows).toEqual([
      { name: "Ada", email: "ada@example.com", source: "chat", conversation_id: conversationId },
    ]);

    const bad = await visitor.contact(widget.id, conversationId, {
      ip,
      token,
      body: { name: "Ada", email: "not an email" },
    });
    expect(bad.status).toBe(400);
    const error = (await bad.json()).error;
    expect(error).toMatchObject({ code: "invalid_request", details: [{ field: "email" }] });
  });
});
