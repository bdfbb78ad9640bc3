import { beforeAll, describe, expect, it } from "vitest";
import { postVisitorMessage } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, conversationKey, errorOf, startedConversation } from "./api-client";

/* GET /api/public/conversations, …/{id} and …/{id}/messages: lists, filters, paging, account scoping. */

type Page = {
  data: { id: string; status: string; updated_at: string }[];
  has_more: boolean;
  next_cursor: string | null;
};

let owner: TestAccount;
let secret: string;
beforeAll(async () => {
  owner = await createAccount("Conversations Reader");
  secret = await conversationKey(owner, ["read:conversations"]);
});

/** Conversations last active one minute apart, oldest first, so list order is known. */
async function seedActive(account: TestAccount, count: number, handoffEvery = 0) {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const conversation = await startedConversation(account, { handoff: handoffEvery > 0 && n % handoffEvery === 0 });
    await db.pool.query(
      "UPDATE conversations SET updated_at = timestamptz " +
        "'2026-02-01T10:00:00Z' + make_interval(mins => $2) WHERE id = $1",
      [conversation.id, n],
    );
    ids.push(conversation.id);
  }
  return ids;
}

async function readAll(key: string, query: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await api.list(key, `${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as Page;
    seen.push(...page.data.map((conversation) => conversation.id));
    expect(page.next_cursor === null).toBe(!page.has_more);
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

describe("GET /api/public/conversations", () => {
  it("pages most recently active first without skipping or repeating, and oldest first with order=asc", async () => {
    const account = await createAccount("Conversation Pager");
    const key = await conversationKey(account, ["read:conversations"]);
    const ids = await seedActive(account, 7);
    expect(await readAll(key, "?limit=3")).toEqual([...ids].reverse());
    expect(await readAll(key, "?limit=2&order=asc")).toEqual(ids);
  });

  it("answers each conversation with its session data, as GET …/{id} does", async () => {
    const account = await createAccount("Session Data");
    const key = await conversationKey(account, ["read:conversations"]);
    const conversation = await startedConversation(account);
    const page = (await (await api.list(key)).json()) as { data: Record<string, unknown>[] };
    expect(page.data).toEqual([
      {
        id: conversation.id,
        status: "bot",
        widget_id: expect.stringMatching(/^wid_/),
        lead_id: null,
        visitor_name: null,
        visitor_email: null,
        contact: null,
        started_at: expect.stringMatching(/Z$/),
        page_url: "https://example.com/events",
        referrer: "https://search.example/",
        user_agent: "Mozilla/5.0 (test)",
        locale: "en-GB",
        handoff_requested_at: null,
        closed_at: null,
        closed_reason: null,
        last_message_at: expect.stringMatching(/Z$/),
        created_at: page.data[0]!.started_at,
        updated_at: expect.stringMatching(/Z$/),
      },
    ]);
    const single = await api.get(key, conversation.id);
    expect(single.status).toBe(200);
    expect(single.headers.get("Cache-Control")).toBe("no-store");
    expect(await single.json()).toEqual(page.data[0]);
  });

  it("filters by status and by updated_after, and pages within the filter", async () => {
    const account = await createAccount("Conversation Filter");
    const key = await conversationKey(account, ["read:conversations"]);
    const ids = await seedActive(account, 9, 3); // 0, 3 and 6 asked for a person
    expect(await readAll(key, "?status=handoff_requested&limit=2")).toEqual([ids[6], ids[3], ids[0]]);
    expect(await readAll(key, "?status=bot&limit=4")).toEqual([ids[8], ids[7], ids[5], ids[4], ids[2], ids[1]]);
    expect(await readAll(key, "?status=closed")).toEqual([]);
    expect(await readAll(key, "?updated_after=2026-02-01T10:05:00Z")).toEqual([ids[8], ids[7], ids[6]]);
    expect(await readAll(key, "?updated_after=2026-02-01T12:05:00%2B02:00&status=handoff_requested")).toEqual([ids[6]]);
  });

  it("refuses an unknown status, a bad date, a bad limit and another list's cursor, naming each one", async () => {
    for (const [query, field] of [
      ["?status=waiting", "status"],
      ["?updated_after=yesterday", "updated_after"],
      ["?limit=0", "limit"],
      ["?order=newest", "order"],
      ["?cursor=bm90LWEtY3Vyc29y", "cursor"],
    ] as const) {
      const response = await api.list(secret, query);
      expect(response.status, query).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_request");
      expect(error.details.map((detail) => detail.field)).toEqual([field]);
    }
  });

  it("lists only the key's own account's conversations", async () => {
    const other = await createAccount("Someone Else");
    await startedConversation(other);
    const mine = await startedConversation(owner);
    const ids = await readAll(secret, "?limit=100");
    expect(ids).toContain(mine.id);
    const { rows } = await db.pool.query<{ id: string }>("SELECT id FROM conversations WHERE account_id = $1", [
      other.accountId,
    ]);
    expect(ids.filter((id) => rows.some((row) => row.id === id))).toEqual([]);
  });
});

describe("GET /api/public/conversations/{id}", () => {
  it("answers 404 not_found for another account's conversation, an unknown id and a malformed one", async () => {
    const other = await createAccount("Other Account");
    const theirs = await startedConversation(other);
    for (const id of [theirs.id, "conv_0000000000000000000000", "not-an-id", "conv_' OR 1=1 --"]) {
      const response = await api.get(secret, id);
      expect(response.status, id).toBe(404);
      expect(await errorOf(response)).toEqual({
        code: "not_found",
        message: "The conversation was not found.",
        details: [],
      });
      expect((await api.messages(secret, id)).status, id).toBe(404);
    }
  });
});

describe("GET /api/public/conversations/{id}/messages", () => {
  it("lists the messages oldest first, paging by cursor in the order they were written", async () => {
    const conversation = await startedConversation(owner);
    const widget = await getOrCreateWidget(owner.accountId);
    for (const text of ["first question", "second question", "third question"])
      await postVisitorMessage(widget, conversation, text);

    const all = (await (await api.messages(secret, conversation.id, "?limit=100")).json()) as {
      data: { author: string; text: string }[];
      has_more: boolean;
    };
    expect(all.has_more).toBe(false);
    // The greeting, then each visitor question with the assistant's answer.
    expect(all.data.map((message) => message.author)).toEqual([
      "assistant",
      "visitor",
      "assistant",
      "visitor",
      "assistant",
      "visitor",
      "assistant",
    ]);
    expect(all.data.filter((message) => message.author === "visitor").map((message) => message.text)).toEqual([
      "first question",
      "second question",
      "third question",
    ]);
    expect(all.data[1]).toEqual({
      id: expect.stringMatching(/^msg_[0-9A-Za-z]{22}$/),
      conversation_id: conversation.id,
      author: "visitor",
      author_name: null,
      text: "first question",
      created_at: expect.stringMatching(/Z$/),
    });

    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (
        await api.messages(secret, conversation.id, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`)
      ).json()) as Page;
      paged.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.data);
  });

  it("refuses a conversations-list cursor as a messages cursor", async () => {
    const account = await createAccount("Cursor Mixer");
    const key = await conversationKey(account, ["read:conversations"]);
    await seedActive(account, 2);
    const { next_cursor: listCursor } = (await (await api.list(key, "?limit=1")).json()) as Page;
    const conversation = await startedConversation(account);
    const response = await api.messages(key, conversation.id, `?cursor=${listCursor}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details.map((detail) => detail.field)).toEqual(["cursor"]);
  });
});
