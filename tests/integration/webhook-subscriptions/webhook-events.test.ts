import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, webhooksKey } from "./client";

let owner: TestAccount;
let secret: string;

// Two days back at 00:00 UTC: within the 30 days notifications are kept (and listed).
const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
const BASE = Date.UTC(twoDaysAgo.getUTCFullYear(), twoDaysAgo.getUTCMonth(), twoDaysAgo.getUTCDate());

/** Notifications as the outbox stores them, 1 ms apart; the n-th id sorts like n. */
async function seedMessages(account: TestAccount, types: string[]) {
  const prefix = account.accountId.replace(/-/g, "").slice(0, 10);
  for (const [index, type] of types.entries()) {
    const id = `whmsg_${prefix}${String(index).padStart(12, "0")}`;
    const createdAt = new Date(BASE + index);
    const payload = { id, type, created_at: createdAt.toISOString(), data: { id: `lead_${index}`, n: index } };
    await db.pool.query(
      "INSERT INTO outbound_messages (id, account_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
      [id, account.accountId, type, payload, createdAt],
    );
  }
}

beforeAll(async () => {
  owner = await createAccount("Webhook Events");
  secret = await webhooksKey(owner);
  await seedMessages(owner, ["lead.created", "lead.updated", "lead.created", "event.created", "lead.created"]);
  const other = await createAccount("Webhook Events Other");
  await seedMessages(other, ["lead.created", "lead.created"]);
});

const ids = (page: { data: { id: string }[] }) => page.data.map((item) => Number(item.id.slice(-12)));

describe("GET /api/public/webhook-events", () => {
  it("lists the account's notifications newest first, each exactly as receivers get it", async () => {
    const response = await api.events(secret);
    expect(response.status).toBe(200);
    const page = await response.json();
    expect(ids(page)).toEqual([4, 3, 2, 1, 0]);
    expect(page.data[0]).toEqual({
      id: expect.stringMatching(/^whmsg_/),
      type: "lead.created",
      created_at: new Date(BASE + 4).toISOString(),
      data: { id: "lead_4", n: 4 },
    });
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("filters by type and pages with the cursor", async () => {
    const first = await (await api.events(secret, "?type=lead.created&limit=2")).json();
    expect(ids(first)).toEqual([4, 2]);
    expect(first.has_more).toBe(true);
    const second = await (await api.events(secret, `?type=lead.created&limit=2&cursor=${first.next_cursor}`)).json();
    expect(ids(second)).toEqual([0]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    const asc = await (await api.events(secret, "?order=asc&type=lead.updated")).json();
    expect(ids(asc)).toEqual([1]);
  });

  it("is empty for a type without notifications", async () => {
    expect(await (await api.events(secret, "?type=conversation.closed")).json()).toEqual({
      data: [],
      has_more: false,
      next_cursor: null,
    });
  });
});
