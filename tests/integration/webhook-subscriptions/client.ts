import { afterAll, beforeAll } from "vitest";
import { GET as getExport, PATCH as patchExport, DELETE as deleteExport } from "@/app/api/public/webhooks/[id]/route";
import { GET as listExport, POST as createExport } from "@/app/api/public/webhooks/route";
import { GET as eventsExport } from "@/app/api/public/webhook-events/route";
import type { Scope } from "@/lib/api-keys/scopes";
import { db } from "@/lib/platform/db/client";
import type { Resolver } from "@/lib/webhook-subscriptions/addresses";
import { setTargetResolver } from "@/lib/webhook-subscriptions/target-url";
import { createKey } from "../../support/api-keys";
import { errorOf, idParams, noParams, publicRequest, type Body, type Options } from "../../support/public-api";
import { createAccount, type TestAccount } from "../../support/factories";

export const api = {
  list: (secret: string, query = "") => listExport(publicRequest("GET", `/webhooks${query}`, secret), noParams),
  create: (secret: string, body: Body, options?: Options) =>
    createExport(publicRequest("POST", "/webhooks", secret, body, options), noParams),
  get: (secret: string, id: string) => getExport(publicRequest("GET", `/webhooks/${id}`, secret), idParams(id)),
  patch: (secret: string, id: string, body: Body) =>
    patchExport(publicRequest("PATCH", `/webhooks/${id}`, secret, body), idParams(id)),
  delete: (secret: string, id: string) =>
    deleteExport(publicRequest("DELETE", `/webhooks/${id}`, secret), idParams(id)),
  events: (secret: string, query = "") =>
    eventsExport(publicRequest("GET", `/webhook-events${query}`, secret), noParams),
};

export async function webhooksKey(owner: TestAccount, scopes: Scope[] = ["webhooks"]): Promise<string> {
  return (await createKey(owner, { name: "Zapier", scopes })).secret;
}

/** Host names the tests use; nothing is ever looked up outside this table (no packet leaves the machine). */
export const TEST_HOSTS: Record<string, string[]> = {
  "hooks.example.test": ["93.184.215.14"],
  "zapier.example.test": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "intranet.example.test": ["10.20.30.40"],
  "metadata.example.test": ["169.254.169.254"],
  "split.example.test": ["93.184.215.14", "192.168.0.10"],
};

const fakeResolver: Resolver = async (hostname) => {
  const addresses = TEST_HOSTS[hostname.toLowerCase()];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

export const installFakeResolver = () => setTargetResolver(fakeResolver);

/** The file's tests resolve host names through TEST_HOSTS; the real resolver is back after them. */
export function fakeResolverForTests(): void {
  let restore = () => {};
  beforeAll(() => {
    restore = installFakeResolver();
  });
  afterAll(() => restore());
}

/** A new account and a key of it with the webhooks scope. */
export async function accountWithWebhooksKey(name: string): Promise<{ owner: TestAccount; key: string }> {
  const owner = await createAccount(name);
  return { owner, key: await webhooksKey(owner) };
}

/** The answer kept for an Idempotency-Key of the account's keys (none, or one row). */
export async function storedIdempotencyAnswer(accountId: string, idempotencyKey: string) {
  const { rows } = await db.pool.query<{ body: string; sealed: boolean; status: number }>(
    `SELECT i.body, i.sealed, i.status FROM idempotency_keys i JOIN api_keys k ON k.id = i.api_key_id
      WHERE k.account_id = $1 AND i.key = $2`,
    [accountId, idempotencyKey],
  );
  return rows;
}

export const subscriptionCount = async (accountId: string) =>
  Number(
    (
      await db.pool.query<{ count: string }>("SELECT count(*) FROM webhook_subscriptions WHERE account_id = $1", [
        accountId,
      ])
    ).rows[0].count,
  );

export async function storedSubscription(id: string) {
  const { rows } = await db.pool.query("SELECT * FROM webhook_subscriptions WHERE id = $1", [id]);
  return rows[0] ?? null;
}

export async function withLoopbackTargets<T>(run: () => Promise<T>): Promise<T> {
  const before = process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
  process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    else process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = before;
  }
}

export { errorOf };
