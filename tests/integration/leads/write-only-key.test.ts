import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, errorOf, leadKey, storedLead } from "./client";

/*
 * A key with write:leads but not read:leads writes leads without reading them: a write answers the id,
 * the fields the request set and the timestamps of the write, never the rest of the lead, and a duplicate
 * email's 409 does not say which lead holds it. With read:leads, writes answer the whole lead as before.
 */

let owner: TestAccount;
let writeOnly: string;
let readWrite: string;
beforeAll(async () => {
  owner = await createAccount("Write only");
  writeOnly = await leadKey(owner, ["write:leads"]);
  readWrite = await leadKey(owner);
});

/** A lead with private fields, made by a key that may read it. */
async function privateLead(email: string) {
  const response = await api.create(readWrite, {
    name: "Ada",
    email,
    phone: "+44 1",
    notes: "Private: pays late",
    metadata: { tier: "gold" },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; created_at: string };
}

describe("writes with a write-only key", () => {
  it("answers a create with the id, the fields sent and the three timestamps", async () => {
    const response = await api.create(writeOnly, {
      name: " Grace ",
      email: "Grace@Example.test",
      notes: null,
      metadata: { plan: "pro", dropped: null },
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^lead_/),
      name: "Grace",
      email: "grace@example.test",
      notes: null,
      metadata: { plan: "pro" },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      stage_changed_at: expect.any(String),
    });
    expect(response.headers.get("Location")).toBe(`/api/public/leads/${body.id}`);
    // What the pipeline's default stage and source are is not the writer's to read.
    expect(await storedLead(body.id)).toMatchObject({ stage: "new", source: "api" });
  });

  it("answers an empty PATCH with the id and updated_at only, not the lead's notes or email", async () => {
    const lead = await privateLead("ada-empty@example.test");
    const response = await api.patch(writeOnly, lead.id, {});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: lead.id, updated_at: expect.any(String) });
  });

  it("answers a PATCH with the fields and metadata keys it sent, and stage_changed_at for a stage", async () => {
    const lead = await privateLead("ada-patch@example.test");
    const response = await api.patch(writeOnly, lead.id, {
      company: "Engines",
      stage: "won",
      metadata: { plan: "pro" },
    });
    expect(await response.json()).toEqual({
      id: lead.id,
      company: "Engines",
      stage: "won",
      metadata: { plan: "pro" },
      updated_at: expect.any(String),
      stage_changed_at: expect.any(String),
    });
    const cleared = await (await api.patch(writeOnly, lead.id, { metadata: null, stage: null })).json();
    expect(cleared).toEqual({ id: lead.id, metadata: {}, updated_at: expect.any(String) });
    expect(await storedLead(lead.id)).toMatchObject({
      notes: "Private: pays late",
      metadata: {},
      stage: "won",
      company: "Engines",
    });
  });

  it("answers a stage change with the id, the stage and its timestamps", async () => {
    const lead = await privateLead("ada-stage@example.test");
    const response = await api.stage(writeOnly, lead.id, { stage: "qualified" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: lead.id,
      stage: "qualified",
      updated_at: expect.any(String),
      stage_changed_at: expect.any(String),
    });
  });

  it("refuses a duplicate email with 409 lead_exists that names no lead, on create and on PATCH", async () => {
    const holder = await privateLead("holder@example.test");
    const other = await privateLead("other@example.test");
    for (const response of [
      await api.create(writeOnly, { email: "HOLDER@example.test" }),
      await api.patch(writeOnly, other.id, { email: "holder@example.test" }),
    ]) {
      expect(response.status).toBe(409);
      const text = await response.text();
      expect(text).not.toContain(holder.id);
      const error = JSON.parse(text).error;
      expect(error.code).toBe("lead_exists");
      expect(error.details).toEqual([{ field: "email", message: "Another lead already has this email." }]);
    }
  });

  it("replays a create's receipt, exactly as first answered, for the same Idempotency-Key", async () => {
    const options = { headers: { "Idempotency-Key": "write-only-create-1" } };
    const first = await api.create(writeOnly, { name: "Once", email: "once@example.test" }, options);
    const again = await api.create(writeOnly, { name: "Once", email: "once@example.test" }, options);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const body = await first.json();
    expect(Object.keys(body).sort()).toEqual(["created_at", "email", "id", "name", "stage_changed_at", "updated_at"]);
    expect(await again.json()).toEqual(body);
  });
});

describe("writes with a key that may also read", () => {
  it("answer the whole lead, and a duplicate email's 409 names the lead that holds it", async () => {
    const holder = await privateLead("reader@example.test");
    const patched = await (await api.patch(readWrite, holder.id, {})).json();
    expect(patched).toMatchObject({
      id: holder.id,
      notes: "Private: pays late",
      email: "reader@example.test",
      metadata: { tier: "gold" },
      conversation_id: null,
    });
    const staged = await (await api.stage(readWrite, holder.id, { stage: "lost" })).json();
    expect(staged).toMatchObject({
      id: holder.id,
      stage: "lost",
      notes: "Private: pays late",
      created_at: holder.created_at,
    });
    const error = await errorOf(await api.create(readWrite, { email: "reader@example.test" }));
    expect(error.details).toEqual([
      { field: "email", lead_id: holder.id, message: expect.stringContaining(holder.id) },
    ]);
  });
});
