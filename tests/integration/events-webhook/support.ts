import type { SessionContext } from "@/lib/auth/session";
import { db } from "@/lib/platform/db/client";
import { handleWebhookRequest } from "@/lib/events-webhook/handler";
import { computeSignature } from "@/lib/events-webhook/signature";
import { listSources, readSecret } from "@/lib/events-webhook/sources";
import { createAccount } from "../../support/factories";

/* Shared set-up for the webhook tests: a signed-up account with its source, and signed requests. */

export type TestSource = {
  context: SessionContext;
  accountId: string;
  sourceId: string;
  publicId: string;
  secret: string;
};

export async function createSource(
  options: { plan?: "free" | "pro"; rateLimit?: number; name?: string } = {},
): Promise<TestSource> {
  const account = await createAccount(options.name ?? "Webhook Owner");
  if (options.plan)
    await db.pool.query('UPDATE accounts SET plan = $2::"Plan" WHERE id = $1', [account.accountId, options.plan]);
  const [source] = await listSources(account.accountId);
  if (options.rateLimit)
    await db.pool.query("UPDATE webhook_sources SET rate_limit_per_minute = $2 WHERE id = $1", [
      source.id,
      options.rateLimit,
    ]);
  const context: SessionContext = {
    user: account.user,
    account: { id: account.accountId, name: "Webhook Owner", plan: options.plan ?? "free", timezone: "UTC" },
    role: "owner",
  };
  return {
    context,
    accountId: account.accountId,
    sourceId: source.id,
    publicId: source.publicId,
    secret: (await readSecret(account.accountId, source.id))!,
  };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type RequestOptions = {
  timestamp?: string | null;
  signature?: string | null;
  secret?: string;
  headers?: Record<string, string>;
  publicId?: string;
};

export function signedRequest(source: TestSource, body: string | Uint8Array, options: RequestOptions = {}): Request {
  const timestamp = options.timestamp === undefined ? String(nowSeconds()) : options.timestamp;
  const signature =
    options.signature === undefined
      ? computeSignature(options.secret ?? source.secret, timestamp ?? "", body)
      : options.signature;
  const headers = new Headers({
    "Content-Type": "application/json",
    "User-Agent": "webhook-tests/1",
    ...options.headers,
  });
  if (timestamp !== null) headers.set("X-Service-Timestamp", timestamp);
  if (signature !== null) headers.set("X-Service-Signature", signature);
  return new Request(`http://localhost/api/v1/events/webhook/${options.publicId ?? source.publicId}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
}

export type Answer = { status: number; body: Record<string, unknown> & { ok: boolean }; headers: Headers };

export async function send(
  source: TestSource,
  body: string | Uint8Array,
  options: RequestOptions & { handler?: (request: Request, publicId: string) => Promise<Response> } = {},
): Promise<Answer> {
  const handler = options.handler ?? handleWebhookRequest;
  const response = await handler(signedRequest(source, body, options), options.publicId ?? source.publicId);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

export const upsert = (event: Record<string, unknown>) => JSON.stringify({ action: "upsert", event });
export const cancel = (event: Record<string, unknown>) => JSON.stringify({ action: "cancel", event });
export const remove = (event: Record<string, unknown>) => JSON.stringify({ action: "delete", event });

export const sample = (overrides: Record<string, unknown> = {}) => ({
  title: "Spring Open Day",
  starts_at: "2026-05-01T10:00:00+02:00",
  location: "Main Hall",
  ...overrides,
});

/** Everything a request could change for the source's account, to assert that nothing changed. */
export async function snapshot(source: TestSource) {
  const [events, replays, rate] = await Promise.all([
    db.pool.query("SELECT * FROM events WHERE account_id = $1 ORDER BY id", [source.accountId]),
    db.pool.query("SELECT count(*)::int AS n FROM webhook_replays WHERE source_id = $1", [source.sourceId]),
    db.pool.query("SELECT points FROM rate_limits WHERE key = $1", [`webhook:${source.sourceId}`]),
  ]);
  return {
    events: events.rows,
    replays: replays.rows[0].n as number,
    ratePoints: (rate.rows[0]?.points as number | undefined) ?? 0,
  };
}

export async function lastDelivery(source: TestSource) {
  const result = await db.pool.query(
    "SELECT * FROM webhook_deliveries WHERE source_id = $1 ORDER BY received_at DESC, id DESC LIMIT 1",
    [source.sourceId],
  );
  return result.rows[0] as Record<string, unknown> | undefined;
}

/**
 * Unsigned refusals and replays are logged at most once per source per second; tests that check the
 * log entry of one such request open the one-second gate first (the throttle itself is tested in
 * deliveries.test.ts).
 */
export async function openLogGates(source: TestSource): Promise<void> {
  await db.pool.query("DELETE FROM rate_limits WHERE key IN ('webhook-refusal-log:' || $1, 'webhook-429-log:' || $1)", [
    source.sourceId,
  ]);
}

export async function deliveryCount(source: TestSource): Promise<number> {
  const result = await db.pool.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE source_id = $1", [
    source.sourceId,
  ]);
  return result.rows[0].n;
}

export async function eventRows(source: TestSource) {
  return (await db.pool.query("SELECT * FROM events WHERE account_id = $1 ORDER BY created_at, id", [source.accountId]))
    .rows;
}

/** A weekly series, Saturdays at 09:00 in Europe/Berlin from 3 October 2026: the occurrence tests' account. */
export const YOGA = { title: "Morning Yoga", location: "Studio 2" };
export const YOGA_FIRST = "2026-10-03T09:00:00+02:00";

export async function yogaSource(): Promise<TestSource> {
  const source = await createSource({ name: "Yoga Studio" });
  await db.pool.query("UPDATE accounts SET timezone = 'Europe/Berlin' WHERE id = $1", [source.accountId]);
  const created = await send(source, upsert({ ...YOGA, starts_at: YOGA_FIRST, recurring: "weekly" }));
  if (created.status !== 200) throw new Error(`the series was not created: ${created.status}`);
  return source;
}

/** The answer to an action on one occurrence of a series: the series (upcoming), naming the occurrence. */
export const occurrenceAnswer = (action: string, seriesId: string, startsAt: string, status: string) => ({
  ok: true,
  action,
  event: { id: seriesId, status: "upcoming", created: false, occurrence: { starts_at: startsAt, status } },
});

/** The account's removed occurrences, [instant, kind], in time order. */
export const exceptionsOf = async (source: TestSource) =>
  (
    await db.pool.query("SELECT occurs_at, kind FROM event_exceptions WHERE account_id = $1 ORDER BY occurs_at", [
      source.accountId,
    ])
  ).rows.map((row) => [row.occurs_at.toISOString(), row.kind]);

/** The types of the account's outbound notifications, oldest first. */
export const messageTypesOf = async (source: TestSource) =>
  (
    await db.pool.query("SELECT type FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id", [
      source.accountId,
    ])
  ).rows.map((row) => row.type);
