import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { withIdempotency, type IdempotencyOwner } from "@/lib/api/idempotency";
import { createKey } from "../../support/api-keys";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, errorOf, leadCount } from "./client";
import { ensurePartitionsFor } from "../../support/partitions";

let owner: TestAccount;
let secret: string;
let keyId: string;
let principal: IdempotencyOwner;
beforeAll(async () => {
  owner = await createAccount("Retrying Client");
  const key = await createKey(owner, { scopes: ["read:leads", "write:leads"] });
  secret = key.secret;
  keyId = key.id;
  principal = { account: { id: owner.accountId }, key: { id: keyId } };
});

const withKey = (value: string) => ({ headers: { "Idempotency-Key": value } });
const unique = (label: string) => `${label}-${crypto.randomUUID()}`;

async function storedKeys(value: string) {
  const { rows } = await db.pool.query(
    "SELECT status FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 ORDER BY created_at",
    [keyId, value],
  );
  return rows;
}

describe("Idempotency-Key on POST /api/public/leads", () => {
  it("replays the first answer for the same key and body with Idempotent-Replayed: true; one lead", async () => {
    const key = unique("same");
    const before = await leadCount(owner.accountId);
    const first = await api.create(secret, { name: "Once", email: "once@example.test" }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = await first.json();

    const second = await api.create(secret, { name: "Once", email: "once@example.test" }, withKey(key));
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.headers.get("Cache-Control")).toBe("no-store");
    expect(second.headers.get("Location")).toBe(`/api/public/leads/${firstBody.id}`);
    expect(await second.json()).toEqual(firstBody);
    expect(await leadCount(owner.accountId)).toBe(before + 1);
  });

  it("409 idempotency_key_reused for the same key with another body, and nothing more is stored", async () => {
    const key = unique("reused");
    expect((await api.create(secret, { name: "First body" }, withKey(key))).status).toBe(201);
    const before = await leadCount(owner.accountId);
    const response = await api.create(secret, { name: "Second body" }, withKey(key));
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("idempotency_key_reused");
    expect(await leadCount(owner.accountId)).toBe(before);
  });

  it("409 idempotency_key_reused for the same key and body on another path", async () => {
    const key = unique("path");
    const lead = await (await api.create(secret, { name: "Stage me" }, withKey(key))).json();
    const response = await api.stage(secret, lead.id, { name: "Stage me" }, withKey(key));
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("idempotency_key_reused");
  });

  it("20 concurrent POSTs with one key create one lead; the others get its answer or 409 in progress", async () => {
    const account = await createAccount("Concurrent");
    const { secret: concurrentSecret } = await createKey(account, { scopes: ["write:leads"] });
    const key = unique("burst");
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.create(concurrentSecret, { name: "Burst", email: "burst@example.test" }, withKey(key)),
      ),
    );
    const bodies = await Promise.all(responses.map((response) => response.json()));
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const [index, response] of responses.entries()) {
      if (response.status === 201) expect(bodies[index].id).toBe(bodies[responses.indexOf(created[0])].id);
      else {
        expect(response.status).toBe(409);
        expect(bodies[index].error.code).toBe("idempotency_request_in_progress");
      }
    }
    expect(
      responses.filter((response) => response.headers.get("Idempotent-Replayed") === null && response.status === 201),
    ).toHaveLength(1);
    expect(await leadCount(account.accountId)).toBe(1);
  });

  it("keeps keys apart per API key: another key with the same Idempotency-Key creates its own lead", async () => {
    const key = unique("per-key");
    const other = await createKey(owner, { scopes: ["write:leads"] });
    const a = await (await api.create(secret, { name: "Per key" }, withKey(key))).json();
    const b = await api.create(other.secret, { name: "Per key" }, withKey(key));
    expect(b.status).toBe(201);
    expect(b.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await b.json()).id).not.toBe(a.id);
  });

  it("replays a stored 4xx answer as well", async () => {
    const key = unique("invalid");
    const first = await api.create(secret, { company: "No name" }, withKey(key));
    expect(first.status).toBe(400);
    const again = await api.create(secret, { company: "No name" }, withKey(key));
    expect(again.status).toBe(400);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await errorOf(again)).code).toBe("invalid_request");
  });

  it("400 for a key over 255 characters, and nothing is stored", async () => {
    const key = "k".repeat(256);
    const before = await leadCount(owner.accountId);
    const response = await api.create(secret, { name: "Long key" }, withKey(key));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_request");
    expect(error.details[0].field).toBe("Idempotency-Key");
    expect(await leadCount(owner.accountId)).toBe(before);
    expect(await storedKeys(key)).toEqual([]);
    expect((await api.create(secret, { name: "Max key" }, withKey("k".repeat(255)))).status).toBe(201);
  });

  it("does not store a body that was too large", async () => {
    const key = unique("large");
    const response = await api.create(secret, JSON.stringify({ name: "x".repeat(70 * 1024) }), withKey(key));
    expect(response.status).toBe(413);
    expect(await storedKeys(key)).toEqual([]);
  });
});

describe("withIdempotency", () => {
  const post = (key: string, body = '{"a":1}') =>
    new Request("http://localhost/api/public/things", { method: "POST", headers: { "Idempotency-Key": key }, body });
  const bytes = (text = '{"a":1}') => new TextEncoder().encode(text);

  it("does not store a 5xx answer: the retry runs the handler again", async () => {
    const key = unique("5xx");
    let runs = 0;
    const handler = async () =>
      ++runs === 1 ? jsonResponse({ ok: false }, { status: 503 }) : jsonResponse({ ok: true }, { status: 201 });
    expect((await withIdempotency(post(key), principal, bytes(), handler)).status).toBe(503);
    expect(await storedKeys(key)).toEqual([]);
    const retry = await withIdempotency(post(key), principal, bytes(), handler);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(runs).toBe(2);
  });

  it("does not store a thrown error: the claim is released", async () => {
    const key = unique("throw");
    await expect(
      withIdempotency(post(key), principal, bytes(), async () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    expect(await storedKeys(key)).toEqual([]);
  });

  it("409 idempotency_request_in_progress while the first request has not answered", async () => {
    const key = unique("slow");
    await db.pool.query(
      "INSERT INTO idempotency_keys (account_id, api_key_id, key, fingerprint) VALUES ($3, $1, $2, 'x')",
      [keyId, key, owner.accountId],
    );
    const fingerprintMismatch = await withIdempotency(post(key), principal, bytes(), async () => jsonResponse({}), {
      waitMs: 100,
    });
    expect((await errorOf(fingerprintMismatch)).code).toBe("idempotency_key_reused");

    const { requestFingerprint } = await import("@/lib/api/idempotency");
    await db.pool.query("UPDATE idempotency_keys SET fingerprint = $3 WHERE api_key_id = $1 AND key = $2", [
      keyId,
      key,
      requestFingerprint(post(key), bytes()),
    ]);
    const response = await withIdempotency(post(key), principal, bytes(), async () => jsonResponse({}), {
      waitMs: 100,
    });
    expect(response.status).toBe(409);
    expect(response.headers.get("Retry-After")).toBe("1");
    expect((await errorOf(response)).code).toBe("idempotency_request_in_progress");
  });

  it("runs again after 24 hours: an older answer is ignored, whatever partition still holds it", async () => {
    const expired = unique("expired");
    const fresh = unique("fresh");
    let runs = 0;
    const handler = async () => jsonResponse({ run: ++runs }, { status: 201 });
    await withIdempotency(post(expired), principal, bytes(), handler);
    await withIdempotency(post(fresh), principal, bytes(), handler);
    // Before 01:00 UTC that is the day before yesterday, which an earlier file's retention may have dropped.
    await ensurePartitionsFor("idempotency_keys", [new Date(Date.now() - 25 * 3_600_000)]);
    await db.pool.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE api_key_id = $1 AND key = $2",
      [keyId, expired],
    );
    const again = await withIdempotency(post(expired), principal, bytes(), handler);
    expect(await again.json()).toEqual({ run: 3 });
    const replayed = await withIdempotency(post(fresh), principal, bytes(), handler);
    expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replayed.json()).toEqual({ run: 2 });
    expect(await storedKeys(expired)).toEqual([{ status: 201 }, { status: 201 }]);
  });
});
