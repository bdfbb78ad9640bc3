import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/platform/db/client";
import { relayFanOuts } from "@/lib/outbound/relay";
import { startOutboundWorker, type OutboundWorker, type WorkerOptions } from "@/lib/outbound/worker";
import { createSubscription } from "@/lib/webhook-subscriptions/store";
import { createAccount, type TestAccount } from "../../support/factories";

/* Accounts with subscriptions, a local receiver, and reads of the outbox tables for the outbound tests. */

process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";

export type Subscribed = { account: TestAccount; accountId: string; subscriptionId: string; secret: string };

export async function subscribe(
  accountId: string,
  url: string,
  eventTypes: string[] = ["*"],
): Promise<{ subscriptionId: string; secret: string }> {
  const created = await createSubscription(
    { accountId, actor: { type: "system" } },
    { url, urlField: "url", eventTypes, description: "test" },
  );
  if (!created.ok) throw new Error(`subscription refused: ${JSON.stringify(created)}`);
  return { subscriptionId: created.subscription.id, secret: created.secret };
}

export async function subscribedAccount(
  url = "http://127.0.0.1:9/hook",
  eventTypes: string[] = ["*"],
): Promise<Subscribed> {
  const account = await createAccount();
  const { subscriptionId, secret } = await subscribe(account.accountId, url, eventTypes);
  return { account, accountId: account.accountId, subscriptionId, secret };
}

export type MessageRow = {
  id: string;
  type: string;
  payload: { id: string; type: string; created_at: string; data: Record<string, unknown> };
};

export async function messages(accountId: string): Promise<MessageRow[]> {
  const { rows } = await db.pool.query<MessageRow>(
    "SELECT id, type, payload FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id",
    [accountId],
  );
  return rows;
}

export type DeliveryRow = {
  id: string;
  message_id: string;
  subscription_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
};

/** Does what a worker's relay does when woken: the committed messages' deliveries and jobs, now. */
export async function fanOut(): Promise<number> {
  return relayFanOuts(db.pool);
}

/** The subscription's deliveries, after the relay has fanned out every committed message. */
export async function deliveries(subscriptionId: string): Promise<DeliveryRow[]> {
  await fanOut();
  const { rows } = await db.pool.query<DeliveryRow>(
    "SELECT id, message_id, subscription_id, status::text AS status, attempts, " +
      "next_attempt_at, created_at FROM outbound_deliveries WHERE subscription_id = $1 ORDER BY created_at, id",
    [subscriptionId],
  );
  return rows;
}

export type QueuedRow = {
  delivery_id: string;
  subscription_id: string;
  /** Null while parked behind an open circuit (run_at 'infinity'). */
  run_at: Date | null;
  parked: boolean;
  locked_at: Date | null;
  seq: string;
};

/** The outbound queue's rows of these deliveries (lib/outbound/queue.ts), in queue order. */
export async function queuedRows(deliveryIds: string[]): Promise<QueuedRow[]> {
  const { rows } = await db.pool.query<QueuedRow>(
    "SELECT delivery_id::text, subscription_id, CASE WHEN run_at <> 'infinity' THEN run_at END AS run_at, " +
      "run_at = 'infinity' AS parked, locked_at, seq::text FROM outbound_queue " +
      "WHERE delivery_id = ANY ($1::uuid[]) ORDER BY seq",
    [deliveryIds],
  );
  return rows;
}

/** Takes off the queue the rows (and the circuits) of subscriptions whose URL is LIKE `urlPattern`. */
export async function dropQueuedFor(urlPattern: string): Promise<void> {
  await db.pool.query(
    "DELETE FROM outbound_queue q USING webhook_subscriptions s WHERE s.id = q.subscription_id AND s.url LIKE $1",
    [urlPattern],
  );
  await db.pool.query(
    "DELETE FROM outbound_circuits c USING webhook_subscriptions s WHERE s.id = c.subscription_id AND s.url LIKE $1",
    [urlPattern],
  );
}

/** The rows of graphile-worker's job table (its public view). */
export async function graphileJobCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM graphile_worker.jobs");
  return rows[0].n;
}

export type ReceivedRequest = { headers: http.IncomingHttpHeaders; body: string; at: number; url: string };

export type Receiver = { url: string; requests: ReceivedRequest[]; close: () => Promise<void> };

/**
 * A node:http server on 127.0.0.1; `respond` decides each answer (default 204). Requests are recorded
 * when their body has arrived, before `respond` runs. Closing it also takes off the queue what still waits
 * for it (and its circuits): the port is free again, and a later file's receiver given the same port would
 * otherwise answer that backlog's probe and receive the backlog.
 */
export async function startReceiver(
  respond?: (request: ReceivedRequest, res: http.ServerResponse, req: http.IncomingMessage) => void,
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        url: req.url ?? "/",
      };
      requests.push(received);
      if (respond) respond(received, res, req);
      else res.writeHead(204).end();
    });
  });
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: async () => {
      await new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      await dropQueuedFor(`http://127.0.0.1:${port}/%`);
    },
  };
}

/**
 * A worker in this process for the whole test file, and `receiver()` to start receivers closed after it.
 * The receivers close first: their sockets are destroyed, so stopping the worker never waits on an attempt
 * that a stalled receiver holds open.
 */
export function workerWithReceivers(options: WorkerOptions): {
  receiver: (respond?: Parameters<typeof startReceiver>[0]) => Promise<Receiver>;
} {
  let worker: OutboundWorker;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    worker = await startOutboundWorker({ log: () => {}, ...options });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker.stop();
  });
  return {
    receiver: async (respond) => {
      const started = await startReceiver(respond);
      receivers.push(started);
      return started;
    },
  };
}

export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 40_000,
  label = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One committed notification for the account (its own single-statement transaction). */
export async function notify(
  accountId: string,
  type = "lead.created",
  data: Record<string, unknown> = { id: "lead_test" },
): Promise<string> {
  const { emitNotifications } = await import("@/lib/outbound/emit");
  const [id] = await emitNotifications(db.pool, accountId, [{ type, data }]);
  return id;
}

export type AttemptRow = {
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string;
  error: string | null;
  outcome: string;
  attempted_at: Date;
};

export async function attempts(subscriptionId: string): Promise<AttemptRow[]> {
  const { rows } = await db.pool.query<AttemptRow>(
    "SELECT attempt, status_code, duration_ms, response_excerpt, error, outcome, " +
      "attempted_at FROM outbound_attempts WHERE subscription_id = $1 ORDER BY attempted_at, attempt",
    [subscriptionId],
  );
  return rows;
}

export async function subscriptionRow(subscriptionId: string) {
  const { rows } = await db.pool.query(
    "SELECT status::text AS status, disabled_reason, failing_since, last_delivery_at, " +
      "last_delivery_ok, last_error FROM webhook_subscriptions WHERE id = $1",
    [subscriptionId],
  );
  return rows[0] as {
    status: string;
    disabled_reason: string | null;
    failing_since: Date | null;
    last_delivery_at: Date | null;
    last_delivery_ok: boolean | null;
    last_error: string | null;
  };
}
