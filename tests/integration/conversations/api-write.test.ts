import { beforeAll, describe, expect, it } from "vitest";
import { closeConversation } from "@/lib/conversations/agent";
import { getConversation, listMessages } from "@/lib/conversations/read";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, conversationKey, errorOf, messageCount, notifications, startedConversation } from "./api-client";

/* POST /api/public/conversations/{id}/messages and …/close: handoff states, bad input, concurrency, scopes. */

type Message = {
  id: string;
  conversation_id: string;
  author: string;
  author_name: string | null;
  text: string;
  created_at: string;
};

let owner: TestAccount;
let secret: string;
beforeAll(async () => {
  owner = await createAccount("Conversations Agent");
  secret = await conversationKey(owner);
});

describe("POST /api/public/conversations/{id}/messages", () => {
  it("answers 201 with the agent's message in handoff, makes it handoff_active, sends message.created", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    expect(conversation.status).toBe("handoff_requested");
    const response = await api.post(secret, conversation.id, {
      text: "  Hi, Grace here. How can I help?  ",
      author_name: " Grace ",
      channel: "ignored",
    });
    expect(response.status).toBe(201);
    const message = (await response.json()) as Message;
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_[0-9A-Za-z]{22}$/),
      conversation_id: conversation.id,
      author: "agent",
      author_name: "Grace",
      text: "Hi, Grace here. How can I help?",
      created_at: expect.stringMatching(/Z$/),
    });
    expect(await getConversation(owner.accountId, conversation.id)).toMatchObject({ status: "handoff_active" });

    const announced = (await notifications(owner.accountId, "message.created")).map((row) => row.payload.data);
    expect(announced).toContainEqual(message);

    const listed = (await (await api.messages(secret, conversation.id, "?limit=100")).json()) as { data: Message[] };
    expect(listed.data.at(-1)).toEqual(message);
    // Later replies keep it active.
    expect((await api.post(secret, conversation.id, { text: "Still here." })).status).toBe(201);
    expect(await getConversation(owner.accountId, conversation.id)).toMatchObject({ status: "handoff_active" });
  });

  it("answers 409 conversation_not_in_handoff while the assistant answers, storing and announcing none", async () => {
    const conversation = await startedConversation(owner);
    const before = {
      messages: await messageCount(conversation.id),
      notes: (await notifications(owner.accountId)).length,
    };
    const response = await api.post(secret, conversation.id, { text: "Hello from the API" });
    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.code).toBe("conversation_not_in_handoff");
    expect(error.details).toEqual([expect.objectContaining({ status: "bot" })]);
    expect(await messageCount(conversation.id)).toBe(before.messages);
    expect((await notifications(owner.accountId)).length).toBe(before.notes);
    expect(await getConversation(owner.accountId, conversation.id)).toMatchObject({ status: "bot" });
  });

  it("answers 409 to a message for a closed conversation, storing nothing", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    await closeConversation(owner.accountId, conversation.id, "agent");
    const stored = await messageCount(conversation.id);
    const response = await api.post(secret, conversation.id, { text: "Are you still there?" });
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({
      code: "conversation_not_in_handoff",
      details: [{ status: "closed" }],
    });
    expect(await messageCount(conversation.id)).toBe(stored);
  });

  it("answers 404 not_found for another account's conversation and stores nothing in it", async () => {
    const other = await createAccount("Not Yours");
    const theirs = await startedConversation(other, { handoff: true });
    const stored = await messageCount(theirs.id);
    const response = await api.post(secret, theirs.id, { text: "Let me in" });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("not_found");
    expect(await messageCount(theirs.id)).toBe(stored);
    expect((await api.close(secret, theirs.id)).status).toBe(404);
    expect(await getConversation(other.accountId, theirs.id)).toMatchObject({ status: "handoff_requested" });
  });

  it("stores 20 concurrent replies, each once, in order: a poller reading after its last seq misses none", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    // How the widget and the inbox follow a conversation: poll for messages after the last seq seen.
    const polled: string[] = [];
    let lastSeq = 0;
    const poll = async () => {
      const page = await listMessages(owner.accountId, conversation.id, { afterSeq: lastSeq, limit: 100 });
      for (const message of page.data) if (message.author === "agent") polled.push(message.id);
      lastSeq = page.data.at(-1)?.seq ?? lastSeq;
    };
    let posting = true;
    const poller = (async () => {
      while (posting) await poll();
    })();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post(secret, conversation.id, { text: `reply ${i}`, author_name: "Grace" }),
      ),
    );
    posting = false;
    await poller;
    await poll();
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const created = await Promise.all(responses.map((response) => response.json() as Promise<Message>));
    const listed = (
      (await (await api.messages(secret, conversation.id, "?limit=100")).json()) as { data: Message[] }
    ).data.filter((m) => m.author === "agent");
    expect(listed).toHaveLength(20);
    expect(new Set(listed.map((message) => message.text)).size).toBe(20);
    expect(listed.map((message) => message.id).sort()).toEqual(created.map((message) => message.id).sort());
    expect(polled).toEqual(listed.map((message) => message.id));
  });

  it("stores HTML and script verbatim, as text", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    const text =
      `<script>alert("x")</script><img src=x onerror=alert(1)> & ` + `<b>bold</b> '; DROP TABLE conversations; --`;
    const response = await api.post(secret, conversation.id, { text, author_name: "<i>Grace</i>" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ text, author_name: "<i>Grace</i>" });
    const listed = (await (await api.messages(secret, conversation.id, "?limit=100")).json()) as { data: Message[] };
    expect(listed.data.at(-1)).toMatchObject({ text, author_name: "<i>Grace</i>" });
  });

  it.each([
    { label: "4,001 characters", body: { text: "x".repeat(4001) }, field: "text", message: /at most 4,000/ },
    { label: "an empty text", body: { text: "" }, field: "text", message: /Write a message/ },
    { label: "a text of white space", body: { text: " \n\t " }, field: "text", message: /Write a message/ },
    { label: "no text", body: { author_name: "Grace" }, field: "text", message: /Write a message/ },
    {
      label: "binary (control characters)",
      body: { text: "\u0000\u0001\u0002PNG\u001a" },
      field: "text",
      message: /not text/,
    },
    { label: "a lone surrogate", body: { text: "broken \ud800 text" }, field: "text", message: /not text/ },
    { label: "a number as text", body: { text: 42 }, field: "text", message: /string/ },
    {
      label: "a 101-character author name",
      body: { text: "Hi", author_name: "x".repeat(101) },
      field: "author_name",
      message: /at most 100/,
    },
  ])("answers 400 invalid_request naming the field for $label, storing nothing", async ({ body, field, message }) => {
    const conversation = await startedConversation(owner, { handoff: true });
    const stored = await messageCount(conversation.id);
    const response = await api.post(secret, conversation.id, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_request");
    expect(error.details).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect(await messageCount(conversation.id)).toBe(stored);
  });

  it("accepts exactly 4,000 characters, counting an emoji as one", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    const response = await api.post(secret, conversation.id, { text: "😀".repeat(4000) });
    expect(response.status).toBe(201);
    expect([...((await response.json()) as Message).text]).toHaveLength(4000);
  });

  it("answers 400 invalid_json to a body that is binary rather than JSON", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x89, 0x50, 0x4e, 0x47]);
    const response = await api.post(secret, conversation.id, new TextDecoder("latin1").decode(bytes));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("invalid_json");
    expect(await messageCount(conversation.id)).toBe(2); // greeting and the handoff notice
  });

  it("honours Idempotency-Key: a retry replays the first answer and stores one message", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    const headers = { "Idempotency-Key": `reply-${conversation.id}` };
    const first = await api.post(secret, conversation.id, { text: "Only once" }, { headers });
    const again = await api.post(secret, conversation.id, { text: "Only once" }, { headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const other = await api.post(secret, conversation.id, { text: "Something else" }, { headers });
    expect(other.status).toBe(409);
    expect((await errorOf(other)).code).toBe("idempotency_key_reused");
    const listed = (await (await api.messages(secret, conversation.id, "?limit=100")).json()) as { data: Message[] };
    expect(listed.data.filter((message) => message.author === "agent").map((message) => message.text)).toEqual([
      "Only once",
    ]);
  });
});

describe("scopes", () => {
  it("answers 403 insufficient_scope naming write:conversations to a read-only key, and stores nothing", async () => {
    const reader = await conversationKey(owner, ["read:conversations", "read:leads", "write:leads", "webhooks"]);
    const conversation = await startedConversation(owner, { handoff: true });
    const stored = await messageCount(conversation.id);
    for (const response of [
      await api.post(reader, conversation.id, { text: "Hi" }),
      await api.close(reader, conversation.id),
    ]) {
      expect(response.status).toBe(403);
      const error = await errorOf(response);
      expect(error.code).toBe("insufficient_scope");
      expect(error.message).toContain("write:conversations");
      expect(error.details).toEqual([expect.objectContaining({ scope: "write:conversations" })]);
      expect(response.headers.get("WWW-Authenticate")).toBe(
        'Bearer error="insufficient_scope", scope="write:conversations"',
      );
    }
    expect(await messageCount(conversation.id)).toBe(stored);
    expect(await getConversation(owner.accountId, conversation.id)).toMatchObject({ status: "handoff_requested" });
  });

  it("answers 403 naming read:conversations to a key without it on every read", async () => {
    const writer = await conversationKey(owner, ["write:conversations"]);
    const conversation = await startedConversation(owner);
    for (const response of [
      await api.list(writer),
      await api.get(writer, conversation.id),
      await api.messages(writer, conversation.id),
    ]) {
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({
        code: "insufficient_scope",
        details: [{ scope: "read:conversations" }],
      });
    }
  });
});

describe("POST /api/public/conversations/{id}/close", () => {
  it("closes with reason api, announces conversation.closed once, and answers a second close unchanged", async () => {
    const conversation = await startedConversation(owner, { handoff: true });
    const response = await api.close(secret, conversation.id);
    expect(response.status).toBe(200);
    const closed = (await response.json()) as { id: string; status: string; closed_reason: string; closed_at: string };
    expect(closed).toMatchObject({
      id: conversation.id,
      status: "closed",
      closed_reason: "api",
      closed_at: expect.stringMatching(/Z$/),
    });
    const again = await api.close(secret, conversation.id);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(closed);
    const announced = (await notifications(owner.accountId, "conversation.closed")).filter(
      (row) => row.payload.data.id === conversation.id,
    );
    expect(announced.map((row) => row.payload.data)).toEqual([closed]);
    expect((await api.post(secret, conversation.id, { text: "Too late" })).status).toBe(409);
  });
});
