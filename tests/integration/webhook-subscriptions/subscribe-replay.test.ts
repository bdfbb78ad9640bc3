import { beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { db } from "@/lib/platform/db/client";
import { createLogger, logger, replaceLogger } from "@/lib/platform/observability/log";
import { rotateSubscriptionSecret } from "@/lib/webhook-subscriptions/store";
import type { TestAccount } from "../../support/factories";
import {
  accountWithWebhooksKey,
  api,
  storedIdempotencyAnswer,
  subscriptionCount,
  fakeResolverForTests,
} from "./client";

/*
 * A replayed subscribe (POST /api/public/webhooks under an Idempotency-Key) hands out the secret only while
 * the subscription it made still exists with that very secret (docs/outbound-webhooks.md, "Idempotency"),
 * and a stored answer that cannot be opened is dropped, so the retry is handled as a new request.
 */

let owner: TestAccount;
let key: string;
fakeResolverForTests();
beforeAll(async () => ({ owner, key } = await accountWithWebhooksKey("Subscribe Replay")));

const target = (name: string) => ({ url: `https://hooks.example.test/replay/${name}`, event_types: ["lead.created"] });
const subscribe = (body: object, idempotencyKey: string) =>
  api.create(key, body, { headers: { "Idempotency-Key": idempotencyKey } });

async function subscribed(body: object, idempotencyKey: string) {
  const response = await subscribe(body, idempotencyKey);
  expect(response.status).toBe(201);
  const text = await response.text();
  return { text, created: JSON.parse(text) as { id: string; secret: string } };
}

const storedRow = (idempotencyKey: string) => storedIdempotencyAnswer(owner.accountId, idempotencyKey);

describe("a replayed subscribe", () => {
  it("repeats the first answer byte for byte while the subscription and its secret are unchanged", async () => {
    const { text } = await subscribed(target("live"), "replay-live");
    const replay = await subscribe(target("live"), "replay-live");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.text()).toBe(text);
  });

  it("answers 404 not_found, without the secret, once the subscription was deleted", async () => {
    const { created } = await subscribed(target("deleted"), "replay-deleted");
    expect((await api.delete(key, created.id)).status).toBe(204);

    const replay = await subscribe(target("deleted"), "replay-deleted");
    expect(replay.status).toBe(404);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const text = await replay.text();
    expect(text).not.toContain(created.secret);
    expect(JSON.parse(text)).toMatchObject({ ok: false, error: { code: "not_found" } });
    // Nothing was made again: the key still stands for the first (now deleted) subscription.
    expect((await subscribe(target("deleted"), "replay-deleted")).status).toBe(404);
  });

  it("answers the subscription's current state without a secret once its secret was rotated", async () => {
    const { created } = await subscribed(target("rotated"), "replay-rotated");
    const context = { accountId: owner.accountId, actor: { type: "user" as const, user: owner.user } };
    const rotated = await rotateSubscriptionSecret(context, created.id);
    if (!rotated.ok) throw new Error("rotation failed");

    const replay = await subscribe(target("rotated"), "replay-rotated");
    expect(replay.status).toBe(200);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("Location")).toBe(`/api/public/webhooks/${created.id}`);
    const text = await replay.text();
    expect(text).not.toContain(created.secret);
    expect(text).not.toContain(rotated.secret);
    const body = JSON.parse(text);
    expect(body).not.toHaveProperty("secret");
    expect(body).toEqual(await (await api.get(key, created.id)).json());
  });
});

describe("a stored subscribe answer that cannot be opened", () => {
  it("is dropped and the request handled as new: 201, a new subscription, and a stored answer that opens", async () => {
    const { created } = await subscribed(target("corrupt"), "replay-corrupt");
    const before = await subscriptionCount(owner.accountId);
    await db.pool.query(
      `UPDATE idempotency_keys SET body = 'not-a-sealed-answer' FROM api_keys k
        WHERE k.id = idempotency_keys.api_key_id AND k.account_id = $1 AND idempotency_keys.key = $2`,
      [owner.accountId, "replay-corrupt"],
    );
    const logs: string[] = [];
    const processLogger = logger();
    replaceLogger(
      createLogger(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            logs.push(...chunk.toString("utf8").split("\n").filter(Boolean));
            done();
          },
        }),
      ),
    );
    let retry: Response;
    try {
      retry = await subscribe(target("corrupt"), "replay-corrupt");
    } finally {
      replaceLogger(processLogger);
    }
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    const text = await retry.text();
    const again = JSON.parse(text) as { id: string; secret: string };
    expect(again.id).not.toBe(created.id);
    expect(again.secret).toMatch(/^whsec_/);
    expect(await subscriptionCount(owner.accountId)).toBe(before + 1);

    // Logged once, without any secret.
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0])).toMatchObject({ level: "error", msg: expect.stringContaining("did not open") });
    expect(logs[0]).not.toContain("whsec_");

    // The corrupt row was replaced by the new answer, sealed, which the next retry replays.
    const rows = await storedRow("replay-corrupt");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sealed: true, status: 201 });
    expect(rows[0].body).not.toBe("not-a-sealed-answer");
    const replay = await subscribe(target("corrupt"), "replay-corrupt");
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.text()).toBe(text);
  });
});
