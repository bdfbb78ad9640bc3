import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/dashboard/conversations/[id]/messages/route";
import type { MessagesPoll } from "@/app/(dashboard)/conversations/view-model";
import { agentReply } from "@/lib/conversations/agent";
import { listMessages } from "@/lib/conversations/read";
import { postVisitorMessage } from "@/lib/conversations/visitor";
import { addMember, createAccount } from "../../support/factories";
import { signInAs, signOut } from "../../support/request-context";
import { proxy } from "@/proxy";
import { openConversation } from "./inbox-support";

/* The conversation page's polling route: the session decides the account; answers only what is new. */

const poll = (id: string, after?: string) =>
  GET(
    new Request(
      `http://localhost/api/dashboard/conversations/${id}/messages` +
        (after === undefined ? "" : `?after=${encodeURIComponent(after)}`),
    ),
    {
      params: Promise.resolve({ id }),
    },
  );

const lastSeq = async (accountId: string, id: string) =>
  (await listMessages(accountId, id, { limit: 100 })).data.at(-1)!.seq;

beforeEach(() => signOut());

describe("GET /api/dashboard/conversations/{id}/messages", () => {
  it("answers 401 without a session", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    const response = await poll(conversation.id, "0");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: "unauthorized" } });
  });

  it("answers only the messages after the given seq, oldest first, with the conversation's state", async () => {
    const owner = await createAccount();
    const { widget, conversation } = await openConversation(owner.accountId);
    await signInAs(await addMember(owner.accountId, "member"));
    const seen = await lastSeq(owner.accountId, conversation.id);
    await postVisitorMessage(widget, conversation, "<script>alert(1)</script> anyone?");
    await agentReply(owner.accountId, conversation.id, { text: "Yes, Grace here", authorName: "Grace" });

    const response = await poll(conversation.id, String(seen));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as MessagesPoll;
    expect(body.messages.map((m) => [m.author, m.name, m.text])).toEqual([
      ["visitor", "Visitor", "<script>alert(1)</script> anyone?"],
      ["agent", "Grace", "Yes, Grace here"],
    ]);
    expect(body.messages[0].seq).toBeGreaterThan(seen);
    // An anonymous visitor is named by the page they chat from and the end of the conversation's id.
    expect(body).toMatchObject({
      conversation: {
        status: "handoff_active",
        leadId: null,
        visitor: `Visitor from /events · ${conversation.id.slice(-4)}`,
      },
      has_more: false,
    });

    const caughtUp = (await (await poll(conversation.id, String(body.messages[1].seq))).json()) as MessagesPoll;
    expect(caughtUp.messages).toEqual([]);
  });

  it("answers everything from the start without after, a page at a time", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    for (let i = 0; i < 100; i++)
      await agentReply(owner.accountId, conversation.id, { text: `reply ${i}`, authorName: "Grace" });
    await signInAs(owner.user);

    const first = (await (await poll(conversation.id)).json()) as MessagesPoll;
    expect(first.messages).toHaveLength(100);
    expect(first.has_more).toBe(true);
    const rest = (await (await poll(conversation.id, String(first.messages.at(-1)!.seq))).json()) as MessagesPoll;
    expect(rest.has_more).toBe(false);
    expect([...first.messages, ...rest.messages].filter((m) => m.author === "agent").map((m) => m.text)).toEqual(
      Array.from({ length: 100 }, (_, i) => `reply ${i}`),
    );
  });

  it("answers 404 for another account's conversation and for an unknown id", async () => {
    const victim = await createAccount();
    const { conversation } = await openConversation(victim.accountId);
    await signInAs((await createAccount("Mallory")).user);

    for (const id of [conversation.id, "conv_doesnotexist", "../../public/leads"]) {
      const response = await poll(id, "0");
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: "not_found" } });
    }
  });

  it("answers 400 for an after that is not a seq", async () => {
    const owner = await createAccount();
    const { conversation } = await openConversation(owner.accountId);
    await signInAs(owner.user);
    for (const after of ["-1", "1.5", "abc", "1e3", "9".repeat(16)]) {
      const response = await poll(conversation.id, after);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        ok: false,
        error: { code: "invalid_request", details: [{ field: "after" }] },
      });
    }
  });
});

describe("the inbox pages without a session", () => {
  it("are sent to sign-in by the proxy, coming back afterwards", async () => {
    for (const path of ["/conversations", "/conversations?tab=closed", "/conversations/conv_abc"]) {
      const response = await proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(response.status).toBe(307);
      expect(new URL(response.headers.get("location")!).searchParams.get("callbackUrl")).toBe(path);
    }
  });
});
