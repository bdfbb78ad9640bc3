import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { closeConversation } from "@/lib/conversations/agent";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { createAccount } from "../../support/factories";
import { json, randomIp, startedChat, visitor } from "../../support/visitor-chat";

/* Bad input and attacks on the chat page's endpoints: each refused with the right answer, nothing stored. */

const messageCount = async (conversationId: string) =>
  Number(
    (
      await db.pool.query<{ count: string }>(`SELECT count(*) FROM conversation_messages WHERE conversation_id = $1`, [
        conversationId,
      ])
    ).rows[0]!.count,
  );
const errorOf = async (response: Response) =>
  (
    (await response.json()) as {
      ok: false;
      error: { code: string; message: string; details: { field?: string; code?: string }[] };
    }
  ).error;

describe("who may read and write a conversation", () => {
  it("answers one 404 to another conversation's token, no token, an unknown conversation or widget", async () => {
    const mine = await startedChat();
    const theirs = await startedChat();
    const bodies = [];
    for (const response of [
      await visitor.poll(mine.widget.id, mine.conversationId, { ip: mine.ip, token: theirs.token }),
      await visitor.poll(mine.widget.id, mine.conversationId, { ip: mine.ip, token: null }),
      await visitor.send(mine.widget.id, mine.conversationId, {
        ip: mine.ip,
        token: theirs.token,
        body: { text: "hi" },
      }),
      await visitor.handoff(mine.widget.id, mine.conversationId, { ip: mine.ip, token: theirs.token }),
      await visitor.contact(mine.widget.id, mine.conversationId, {
        ip: mine.ip,
        token: theirs.token,
        body: { email: "x@example.com" },
      }),
      // The right token, but through another account's widget.
      await visitor.poll(theirs.widget.id, mine.conversationId, { ip: mine.ip, token: mine.token }),
      await visitor.poll(mine.widget.id, "conv_0000000000000000000000", { ip: mine.ip, token: mine.token }),
      await visitor.poll("wid_0000000000000000000000", mine.conversationId, { ip: mine.ip, token: mine.token }),
      await visitor.start("wid_0000000000000000000000", { ip: mine.ip, body: { text: "hi" } }),
    ]) {
      expect(response.status).toBe(404);
      bodies.push(await response.text());
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toEqual({
      ok: false,
      error: { code: "not_found", message: expect.any(String), details: [] },
    });
    expect(await messageCount(mine.conversationId)).toBe(mine.started.messages.length);
  });
});

describe("message text", () => {
  it.each([
    ["4,001 characters", "x".repeat(4_001), "too_long"],
    ["nothing but spaces", "   \n ", "empty"],
    ["a NUL byte", "hello\u0000world", "not_text"],
    ["a lone surrogate", "broken \uD800 text", "not_text"],
    ["a number instead of text", 42, "empty"],
  ])("refuses %s with 400 and stores nothing", async (_label, text, code) => {
    const chat = await startedChat();
    const response = await visitor.send(chat.widget.id, chat.conversationId, {
      ip: chat.ip,
      token: chat.token,
      body: { text },
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: "invalid_request", details: [{ field: "text", code }] });
    expect(await messageCount(chat.conversationId)).toBe(chat.started.messages.length);
  });

  it("accepts exactly 4,000 characters", async () => {
    const chat = await startedChat();
    expect(
      (
        await visitor.send(chat.widget.id, chat.conversationId, {
          ip: chat.ip,
          token: chat.token,
          body: { text: "y".repeat(4_000) },
        })
      ).status,
    ).toBe(201);
  });

  it("refuses an invalid first message without creating the conversation", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const response = await visitor.start(widget.id, { ip: randomIp(), body: { text: "x".repeat(4_001) } });
    expect(response.status).toBe(400);
    expect((await db.pool.query(`SELECT 1 FROM conversations WHERE account_id = $1`, [accountId])).rowCount).toBe(0);
  });

  it("refuses bodies that are not UTF-8 JSON, not JSON, or too large", async () => {
    const chat = await startedChat();
    const call = { ip: chat.ip, token: chat.token };
    const binary = await visitor.send(chat.widget.id, chat.conversationId, {
      ...call,
      body: new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect([binary.status, (await errorOf(binary)).code]).toEqual([400, "invalid_json"]);
    const form = await visitor.send(chat.widget.id, chat.conversationId, {
      ...call,
      body: "text=hi",
      contentType: "application/x-www-form-urlencoded",
    });
    expect([form.status, (await errorOf(form)).code]).toEqual([415, "unsupported_media_type"]);
    const huge = await visitor.send(chat.widget.id, chat.conversationId, {
      ...call,
      body: { text: "hi", padding: "p".repeat(40_000) },
    });
    expect([huge.status, (await errorOf(huge)).code]).toEqual([413, "payload_too_large"]);
    expect(await messageCount(chat.conversationId)).toBe(chat.started.messages.length);
  });

  it("stores HTML and script verbatim and hands them back as plain JSON text", async () => {
    const chat = await startedChat();
    const markup = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
    const sent = await json(
      await visitor.send(chat.widget.id, chat.conversationId, {
        ip: chat.ip,
        token: chat.token,
        body: { text: markup },
      }),
    );
    expect(sent.messages[0]!.text).toBe(markup);
    const stored = await db.pool.query<{ text: string }>(`SELECT text FROM conversation_messages WHERE id = $1`, [
      sent.messages[0]!.id,
    ]);
    expect(stored.rows[0]!.text).toBe(markup);
    const polled = await visitor.poll(chat.widget.id, chat.conversationId, { ip: chat.ip, token: chat.token });
    expect(polled.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await json(polled)).messages.map((m) => m.text)).toContain(markup);
  });
});

describe("a closed conversation", () => {
  it("answers 409 conversation_closed to a message, handoff or contact details, storing nothing", async () => {
    const chat = await startedChat();
    await closeConversation(chat.accountId, chat.conversationId, "agent");
    const before = await messageCount(chat.conversationId);
    const call = { ip: chat.ip, token: chat.token };
    for (const response of [
      await visitor.send(chat.widget.id, chat.conversationId, { ...call, body: { text: "still there?" } }),
      await visitor.handoff(chat.widget.id, chat.conversationId, call),
      await visitor.contact(chat.widget.id, chat.conversationId, { ...call, body: { email: "late@example.com" } }),
    ]) {
      expect(response.status).toBe(409);
      expect((await errorOf(response)).code).toBe("conversation_closed");
    }
    expect(await messageCount(chat.conversationId)).toBe(before);
    expect((await json(await visitor.poll(chat.widget.id, chat.conversationId, call))).conversation.status).toBe(
      "closed",
    );
  });
});

describe("flood protection", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of [
      "CHAT_MESSAGES_PER_IP_PER_MINUTE",
      "CHAT_MESSAGES_PER_WIDGET_PER_MINUTE",
      "CHAT_CONVERSATIONS_PER_IP_PER_HOUR",
      "CHAT_CONVERSATIONS_PER_WIDGET_PER_MINUTE",
    ]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("answers 429 with Retry-After to a parallel flood from one IP and stores no message over the limit", async () => {
    const chat = await startedChat();
    process.env.CHAT_MESSAGES_PER_IP_PER_MINUTE = "5";
    const flooder = { ip: randomIp(), token: chat.token };
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        visitor.send(chat.widget.id, chat.conversationId, { ...flooder, body: { text: `flood ${i}` } }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = responses.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(refused)).code).toBe("rate_limited");
    const visitorMessages = await db.pool.query(
      `SELECT 1 FROM conversation_messages WHERE conversation_id = $1 AND author = 'visitor' AND text LIKE 'flood %'`,
      [chat.conversationId],
    );
    expect(visitorMessages.rowCount).toBe(5);
    // Another address is not affected by this one's flood.
    expect(
      (
        await visitor.send(chat.widget.id, chat.conversationId, {
          ip: randomIp(),
          token: chat.token,
          body: { text: "calm" },
        })
      ).status,
    ).toBe(201);
  });

  it("takes nothing from the widget's budget for a wrong token or an address over its own limit", async () => {
    const chat = await startedChat();
    const widgetPoints = async () =>
      (
        await db.pool.query<{ points: number }>("SELECT points FROM rate_limits WHERE key = $1", [
          `chat-msg-widget:${chat.widget.id}`,
        ])
      ).rows[0]?.points;
    const before = await widgetPoints();
    process.env.CHAT_MESSAGES_PER_IP_PER_MINUTE = "2";
    const guesser = { ip: randomIp(), token: "x".repeat(40) };
    const guesses = [];
    for (let i = 0; i < 4; i++)
      guesses.push(
        (await visitor.send(chat.widget.id, chat.conversationId, { ...guesser, body: { text: "guess" } })).status,
      );
    expect(guesses).toEqual([404, 404, 429, 429]);
    const flooder = { ip: randomIp(), token: chat.token };
    const sent = [];
    for (let i = 0; i < 4; i++)
      sent.push(
        (await visitor.send(chat.widget.id, chat.conversationId, { ...flooder, body: { text: `m ${i}` } })).status,
      );
    expect(sent).toEqual([201, 201, 429, 429]);
    expect(await widgetPoints()).toBe((before ?? 0) + 2);
  });

  it("limits new conversations per IP, and per widget across all IPs", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    process.env.CHAT_CONVERSATIONS_PER_IP_PER_HOUR = "2";
    const ip = randomIp();
    const starts = [];
    for (let i = 0; i < 3; i++)
      starts.push((await visitor.start(widget.id, { ip, body: { text: `start ${i}` } })).status);
    expect(starts).toEqual([201, 201, 429]);
    expect((await db.pool.query(`SELECT 1 FROM conversations WHERE account_id = $1`, [accountId])).rowCount).toBe(2);

    process.env.CHAT_CONVERSATIONS_PER_WIDGET_PER_MINUTE = "3";
    const others = [];
    for (let i = 0; i < 3; i++)
      others.push((await visitor.start(widget.id, { ip: randomIp(), body: { text: `other ${i}` } })).status);
    // Two of the widget's points went to the first two starts.
    expect(others).toEqual([201, 429, 429]);
  });

  it("lets a flood of new conversations use up the widget's starts, not its messages in existing ones", async () => {
    const chat = await startedChat();
    process.env.CHAT_CONVERSATIONS_PER_WIDGET_PER_MINUTE = "3";
    process.env.CHAT_MESSAGES_PER_WIDGET_PER_MINUTE = "3";
    const start = (i: number) => visitor.start(chat.widget.id, { ip: randomIp(), body: { text: `new ${i}` } });
    const flood = await Promise.all(Array.from({ length: 10 }, (_, i) => start(i)));
    // The visitor's own start took the first of the three.
    expect(flood.map((response) => response.status).sort()).toEqual([201, 201, ...Array<number>(8).fill(429)]);
    const conversations = await db.pool.query(`SELECT 1 FROM conversations WHERE account_id = $1`, [chat.accountId]);
    expect(conversations.rowCount).toBe(3);

    // The visitor already talking goes on, from any address, up to the widget's budget for messages.
    const sent = [];
    for (let i = 0; i < 4; i++) {
      const call = { ip: randomIp(), token: chat.token, body: { text: `still here ${i}` } };
      sent.push((await visitor.send(chat.widget.id, chat.conversationId, call)).status);
    }
    expect(sent).toEqual([201, 201, 201, 429]);
  });
});
