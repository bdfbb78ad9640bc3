import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, errorOf, leadCount, leadKey, storedLead } from "./client";

/* Every bad input answers its status and code, and stores nothing. */

let owner: TestAccount;
let secret: string;
beforeAll(async () => {
  owner = await createAccount("Strict");
  secret = await leadKey(owner);
});

async function expectRejectedCreate(body: unknown, status: number, code: string, field?: string) {
  const before = await leadCount(owner.accountId);
  const response = await api.create(secret, typeof body === "string" ? body : (body as object));
  expect(response.status).toBe(status);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const error = await errorOf(response);
  expect(error.code).toBe(code);
  if (field) expect(error.details.map((detail) => detail.field)).toContain(field);
  expect(await leadCount(owner.accountId)).toBe(before);
  return error;
}

const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, "v"]));

describe("POST /api/public/leads with bad input", () => {
  it("400 when name, email and phone are all missing", async () => {
    await expectRejectedCreate({ company: "Only a company" }, 400, "invalid_request", "name");
    await expectRejectedCreate({ name: "  ", email: "", phone: null }, 400, "invalid_request", "name");
  });

  it("400 for an invalid email", async () => {
    const error = await expectRejectedCreate({ email: "not-an-email" }, 400, "invalid_request", "email");
    expect(error.details).toEqual([{ field: "email", message: "Must be a valid email address." }]);
  });

  it("400 for an email over 320 characters", async () => {
    await expectRejectedCreate(
      { email: `${"a".repeat(64)}@${"b".repeat(251)}.example` },
      400,
      "invalid_request",
      "email",
    );
  });

  it("409 lead_exists with the existing id for an email already held, in any letter case", async () => {
    const first = await (await api.create(secret, { email: "taken@example.test" })).json();
    const error = await expectRejectedCreate({ name: "Copy", email: "TAKEN@example.test" }, 409, "lead_exists");
    expect(error.details).toEqual([{ field: "email", lead_id: first.id, message: expect.any(String) }]);
  });

  it("400 for an unknown stage, naming the stages", async () => {
    const error = await expectRejectedCreate({ name: "Staged", stage: "archived" }, 400, "invalid_request", "stage");
    expect(error.details[0].message).toContain("new, contacted, qualified, won, lost");
  });

  it("400 for 51 metadata keys", async () => {
    await expectRejectedCreate({ name: "Meta", metadata: manyKeys(51) }, 400, "invalid_request", "metadata");
  });

  it("400 for a metadata value over 500 characters, naming the key", async () => {
    await expectRejectedCreate(
      { name: "Meta", metadata: { long: "x".repeat(501) } },
      400,
      "invalid_request",
      "metadata.long",
    );
  });

  it("400 for a metadata key over 40 characters and for a non-string value", async () => {
    await expectRejectedCreate({ name: "Meta", metadata: { ["k".repeat(41)]: "v" } }, 400, "invalid_request");
    await expectRejectedCreate({ name: "Meta", metadata: { count: 3 } }, 400, "invalid_request", "metadata.count");
  });

  it.each([
    ["a string", "plan=pro"],
    ["an array", ["pro"]],
    ["a number", 5],
  ])("400 for metadata that is %s", async (_label, metadata) => {
    await expectRejectedCreate({ name: "Meta", metadata }, 400, "invalid_request", "metadata");
  });

  it("400 for fields over their limits", async () => {
    await expectRejectedCreate({ name: "n".repeat(201) }, 400, "invalid_request", "name");
    await expectRejectedCreate({ name: "N", phone: "1".repeat(51) }, 400, "invalid_request", "phone");
    await expectRejectedCreate({ name: "N", notes: "n".repeat(5_001) }, 400, "invalid_request", "notes");
    await expectRejectedCreate({ name: "N", source: "s".repeat(101) }, 400, "invalid_request", "source");
    await expectRejectedCreate({ name: "N", company: 42 }, 400, "invalid_request", "company");
  });

  it("400 invalid_json for a body that is not JSON, and for an empty body", async () => {
    await expectRejectedCreate("{name: 'Jane'", 400, "invalid_json");
    await expectRejectedCreate("", 400, "invalid_json");
  });

  it("400 invalid_request for JSON that is not an object", async () => {
    await expectRejectedCreate("[1, 2]", 400, "invalid_request");
  });

  it("413 payload_too_large for a 1 MiB body", async () => {
    const body = JSON.stringify({ name: "Big", notes: "x".repeat(1024 * 1024) });
    await expectRejectedCreate(body, 413, "payload_too_large");
  });
});

describe("GET /api/public/leads with bad parameters", () => {
  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=ten", "limit"],
    ["order=newest", "order"],
    ["cursor=not-a-cursor", "cursor"],
    [`cursor=${Buffer.from('["2026-01-01T00:00:00.000Z","lead_x"]').toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from("{}").toString("base64url")}`, "cursor"],
    ["created_after=yesterday", "created_after"],
    ["updated_after=2026-01-01", "updated_after"],
  ])("400 invalid_request for %s, naming %s", async (query, field) => {
    const response = await api.list(secret, `?${query}`);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_request");
    expect(error.details).toEqual([{ field, message: expect.any(String) }]);
  });
});

describe("PATCH and stage with bad input", () => {
  it("400 when a PATCH would leave no name, email or phone, and the lead is unchanged", async () => {
    const lead = await (await api.create(secret, { name: "Only Name" })).json();
    const response = await api.patch(secret, lead.id, { name: null });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("invalid_request");
    expect((await storedLead(lead.id)).name).toBe("Only Name");
  });

  it("400 when metadata would exceed 50 keys after the merge", async () => {
    const lead = await (await api.create(secret, { name: "Full", metadata: manyKeys(50) })).json();
    const response = await api.patch(secret, lead.id, { metadata: { extra: "1" } });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details[0].field).toBe("metadata");
    expect(Object.keys((await storedLead(lead.id)).metadata)).toHaveLength(50);
    // Replacing one key with another stays within the limit.
    expect((await api.patch(secret, lead.id, { metadata: { k0: null, extra: "1" } })).status).toBe(200);
  });

  it("409 lead_exists when a PATCH takes another lead's email, and the lead is unchanged", async () => {
    const holder = await (await api.create(secret, { email: "holder@example.test" })).json();
    const lead = await (await api.create(secret, { email: "mover@example.test" })).json();
    const response = await api.patch(secret, lead.id, { email: "Holder@Example.test" });
    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.code).toBe("lead_exists");
    expect(error.details[0]).toMatchObject({ field: "email", lead_id: holder.id });
    expect((await storedLead(lead.id)).email).toBe("mover@example.test");
  });

  it("400 for a PATCH with an invalid email or an unknown stage", async () => {
    const lead = await (await api.create(secret, { name: "Patchy" })).json();
    expect((await api.patch(secret, lead.id, { email: "nope" })).status).toBe(400);
    expect((await api.patch(secret, lead.id, { stage: "nope" })).status).toBe(400);
    expect((await api.patch(secret, lead.id, "not json")).status).toBe(400);
    expect(await storedLead(lead.id)).toMatchObject({ email: null, stage: "new" });
  });

  it("400 for an unknown stage on POST …/stage, and the stage and its timestamp are unchanged", async () => {
    const lead = await (await api.create(secret, { name: "Stuck" })).json();
    const before = await storedLead(lead.id);
    const response = await api.stage(secret, lead.id, { stage: "archived" });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_request");
    expect(error.details[0].field).toBe("stage");
    const after = await storedLead(lead.id);
    expect(after.stage).toBe("new");
    expect(after.stage_changed_at).toEqual(before.stage_changed_at);
  });

  it("400 for POST …/stage without a stage", async () => {
    const lead = await (await api.create(secret, { name: "No stage" })).json();
    const response = await api.stage(secret, lead.id, {});
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details).toEqual([{ field: "stage", message: expect.any(String) }]);
  });

  it("404 for a PATCH of another account's lead, which stays unchanged", async () => {
    const other = await createAccount("Elsewhere");
    const theirs = await (await api.create(await leadKey(other), { name: "Theirs", metadata: { a: "1" } })).json();
    const response = await api.patch(secret, theirs.id, { name: "Mine now", metadata: { a: null } });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("not_found");
    const row = await storedLead(theirs.id);
    expect(row).toMatchObject({ name: "Theirs", metadata: { a: "1" } });
    expect(row.updated_at.toISOString()).toBe(theirs.updated_at);
  });
});

it("nothing in this file wrote an idempotency record (no Idempotency-Key was sent)", async () => {
  const { rows } = await db.pool.query(
    "SELECT count(*)::int AS n FROM idempotency_keys i JOIN api_keys k ON k.id = i.api_key_id WHERE k.account_id = $1",
    [owner.accountId],
  );
  expect(rows[0].n).toBe(0);
});
