import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEvent, getEvent } from "@/lib/events/repository";
import { listEvents } from "@/lib/events/list";
import { createLead } from "@/lib/leads/create";
import { listLeadsTable } from "@/lib/leads/dashboard";
import { listLeads } from "@/lib/leads/read";
import { createLeadSchema } from "@/lib/leads/schemas";
import { createAccount } from "../support/factories";
import { startStreamingReplica, type Replica } from "../support/replica";

/*
 * DATABASE_REPLICA_URL pointed at a real streaming replica of the test server. Pausing the replica's
 * replay makes the two servers differ, which shows where each read goes: dashboard lists and exports read
 * the replica, the public API and read-after-write paths the primary (docs/scaling.md, "Read replica").
 */
const dataDir = inject("embeddedDataDir");
let replica: Replica;

beforeAll(async () => {
  if (!dataDir) return;
  replica = await startStreamingReplica(process.env.DATABASE_URL!, dataDir);
  process.env.DATABASE_REPLICA_URL = replica.url;
}, 120_000);

afterAll(async () => {
  delete process.env.DATABASE_REPLICA_URL;
  await replica?.stop();
});

const event = (title: string) => ({ title, starts_at: "2031-05-04T18:30:00+02:00", location: "Studio 2" });
const lead = (email: string) => createLeadSchema.parse({ name: "Ada", email });

// The replica is a copy of the embedded server's files; with TEST_DATABASE_URL there is no folder to copy.
describe.skipIf(!dataDir)("a read replica", () => {
  it("serves All Events from the replica while a new event is already readable on the primary", async () => {
    const { accountId } = await createAccount();
    const first = await createEvent(accountId, event("Morning Yoga"));
    if (!first.ok) throw new Error(first.message);
    await replica.catchUp();
    expect((await listEvents(accountId)).items.map((item) => item.title)).toEqual(["Morning Yoga"]);

    await replica.pauseReplay();
    try {
      const second = await createEvent(accountId, event("Evening Pilates"));
      if (!second.ok) throw new Error(second.message);
      // The list is the replica's (replay paused), the event's own page the primary's.
      expect((await listEvents(accountId)).items.map((item) => item.title)).toEqual(["Morning Yoga"]);
      expect((await getEvent(accountId, second.event.id))?.title).toBe("Evening Pilates");
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    expect((await listEvents(accountId)).items.map((item) => item.title).sort()).toEqual([
      "Evening Pilates",
      "Morning Yoga",
    ]);
  });

  it("serves the leads table from the replica and the public API's list from the primary", async () => {
    const { accountId } = await createAccount();
    await replica.catchUp();
    await replica.pauseReplay();
    try {
      const created = await createLead({ accountId, actor: { type: "system" } }, lead("ada@example.test"));
      expect(created.ok).toBe(true);
      expect((await listLeadsTable(accountId, { limit: 25 })).leads).toEqual([]);
      const api = await listLeads(accountId, { limit: 25, order: "desc", cursor: null });
      expect(api.data.map((item) => item.email)).toEqual(["ada@example.test"]);
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    expect((await listLeadsTable(accountId, { limit: 25 })).leads.map((item) => item.email)).toEqual([
      "ada@example.test",
    ]);
  });
});
