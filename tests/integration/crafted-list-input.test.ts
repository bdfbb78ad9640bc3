import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import AuditLogPage from "@/app/(dashboard)/settings/audit-log/page";
import ConversationsPage from "@/app/(dashboard)/conversations/page";
import { GET as exportRoute } from "@/app/(dashboard)/leads/export/route";
import LeadsPage from "@/app/(dashboard)/leads/page";
import { listInbox } from "@/lib/conversations/inbox";
import { CONVERSATION_CURSOR } from "@/lib/conversations/schemas";
import { listDeliveries } from "@/lib/events-webhook/deliveries";
import { listEvents } from "@/lib/events/list";
import { newPublicId } from "@/lib/platform/ids";
import { createLead } from "@/lib/leads/create";
import { listLeadsTable } from "@/lib/leads/dashboard";
import { createLeadSchema, LEAD_CURSOR } from "@/lib/leads/schemas";
import { listDeliveryAttempts } from "@/lib/outbound/manage";
import { encodeCursor } from "@/lib/platform/pagination/keyset";
import { MESSAGE_CURSOR, SUBSCRIPTION_CURSOR } from "@/lib/webhook-subscriptions/schemas";
import { api as conversationsApi, conversationKey } from "./conversations/api-client";
import { openConversation } from "./conversations/inbox-support";
import { api as leadsApi, errorOf, leadKey } from "./leads/client";
import { signedInOwner, type TestAccount } from "../support/factories";
import { renderedText } from "../support/rendered-text";
import { api as webhooksApi, webhooksKey } from "./webhook-subscriptions/client";

/*
 * Input a client crafted, which passes a lenient check but PostgreSQL refuses: an impossible date in a
 * cursor (Date.parse rolls 30 February over to March; `::timestamptz` refuses it) and NUL characters in
 * the dashboard's filters. The API answers 400, the dashboard shows its list (unfiltered, with a notice
 * for a filter), the export answers 400; nothing reaches PostgreSQL to end in a 500 or an error page.
 */

const IMPOSSIBLE = "2026-02-30T10:00:00.000Z";
const forged = (tag: string, id: string) => encodeCursor(tag, [IMPOSSIBLE, id]);

let owner: TestAccount;
beforeEach(async () => {
  owner = await signedInOwner();
});

const seedLead = async (fields: Record<string, unknown>) => {
  const result = await createLead(
    { accountId: owner.accountId, actor: { type: "system" } },
    createLeadSchema.parse(fields),
  );
  if (!result.ok) throw new Error(`seed refused: ${result.code}`);
  return result.lead;
};

describe("a cursor holding an impossible date", () => {
  it("is a 400 naming cursor on every public list, not a 500", async () => {
    const leads = await leadsApi.list(await leadKey(owner), `?cursor=${forged(LEAD_CURSOR.tag, newPublicId("lead"))}`);
    const conversations = await conversationsApi.list(
      await conversationKey(owner),
      `?cursor=${forged(CONVERSATION_CURSOR.tag, newPublicId("conversation"))}`,
    );
    const secret = await webhooksKey(owner);
    const subscriptions = await webhooksApi.list(
      secret,
      `?cursor=${forged(SUBSCRIPTION_CURSOR.tag, newPublicId("subscription"))}`,
    );
    const events = await webhooksApi.events(
      secret,
      `?cursor=${forged(MESSAGE_CURSOR.tag, newPublicId("notification"))}`,
    );
    for (const response of [leads, conversations, subscriptions, events]) {
      expect(response.status).toBe(400);
      expect((await errorOf(response)).details).toEqual([{ field: "cursor", message: expect.any(String) }]);
    }
  });

  it("shows the first page of every dashboard list", async () => {
    const lead = await seedLead({ name: "Ada" });
    const { conversation } = await openConversation(owner.accountId, "bot");
    const uuid = crypto.randomUUID();

    expect(
      (
        await listLeadsTable(owner.accountId, { limit: 10, cursor: forged(LEAD_CURSOR.tag, lead.id), dir: "prev" })
      ).leads.map((each) => each.id),
    ).toEqual([lead.id]);
    const inbox = await listInbox(owner.accountId, {
      status: "bot",
      limit: 10,
      cursor: forged(CONVERSATION_CURSOR.tag, conversation.id),
    });
    expect(inbox.data.map((item) => item.conversation.id)).toEqual([conversation.id]);
    expect((await listEvents(owner.accountId, { cursor: forged("starts_at", uuid) })).items).toEqual([]);
    expect((await listDeliveries(owner.accountId, uuid, { cursor: forged("deliveries", uuid) })).items).toEqual([]);
    expect(
      (
        await listDeliveryAttempts(owner.accountId, newPublicId("subscription"), {
          cursor: forged("outbound-attempts", uuid),
        })
      ).data,
    ).toEqual([]);

    expect(
      renderedText(await LeadsPage({ searchParams: Promise.resolve({ cursor: forged(LEAD_CURSOR.tag, lead.id) }) })),
    ).toContain(lead.id);
    const inboxPage = await ConversationsPage({
      searchParams: Promise.resolve({ tab: "assistant", cursor: forged(CONVERSATION_CURSOR.tag, conversation.id) }),
    });
    expect(renderedText(inboxPage)).toContain(conversation.id);
    expect(renderedText(inboxPage)).toContain("That page link is out of date or was changed");
    await expect(
      AuditLogPage({ searchParams: Promise.resolve({ older: forged("audit", uuid) }) }),
    ).resolves.toBeTruthy();
  });
});

describe("a dashboard filter the API would refuse", () => {
  it("shows the leads table unfiltered with a notice", async () => {
    const ada = await seedLead({ name: "Ada", stage: "won" });
    const grace = await seedLead({ name: "Grace" });
    for (const params of [{ q: "a\u0000" }, { stage: "\u0000" }, { q: "x".repeat(201), stage: "won" }]) {
      const text = renderedText(await LeadsPage({ searchParams: Promise.resolve(params) }));
      expect(text).toContain(ada.id);
      expect(text).toContain(grace.id);
      expect(text).toContain("so every lead is shown");
    }
    const filtered = renderedText(await LeadsPage({ searchParams: Promise.resolve({ stage: "won" }) }));
    expect(filtered).toContain(ada.id);
    expect(filtered).not.toContain(grace.id);
    expect(filtered).not.toContain("so every lead is shown");
  });

  it("makes the CSV export answer 400 with the JSON error body", async () => {
    await seedLead({ name: "Ada" });
    for (const query of ["?q=%00", "?stage=%00", "?q=a%00b&stage=won"]) {
      const response = await exportRoute(new Request(`http://localhost:3000/leads/export${query}`));
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_request");
      expect(error.details.map((detail) => detail.field)).toEqual([query.startsWith("?q") ? "q" : "stage"]);
    }
  });
});
