import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { encryptSecret } from "@/lib/platform/crypto/secrets";
import { newPublicId } from "@/lib/platform/ids";
import { emitNotifications } from "@/lib/outbound/emit";
import { startOutboundWorker, type OutboundWorker } from "@/lib/outbound/worker";
import { generateSubscriptionSecret } from "@/lib/webhook-subscriptions/model";
import { outageDatabase } from "../../support/outage-database";
import { deliveries, notify, startReceiver, subscribedAccount, waitFor, type Receiver } from "./support";

/* Delivery survives a worker killed mid-delivery and a database that stops for 10 seconds. */

const receivers: Receiver[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(receivers.map((r) => r.close()));
});

/**
 * `npm run worker` as a child process on the test database: node itself with tsx's loader, not the tsx
 * wrapper, whose SIGKILL would leave the real worker running as an orphan.
 */
function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/worker.ts"], {
    env: {
      ...process.env,
      OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1",
      OUTBOUND_TIMEOUT_MS: "2500",
      OUTBOUND_STALE_LOCK_MS: "4000",
      OUTBOUND_WORKER_CONCURRENCY: "4",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return child;
}

describe("a worker killed with SIGKILL mid-delivery", () => {
  it(
    "leaves the delivery to the restarted worker, which delivers it with the same webhook-id",
    { timeout: 90_000 },
    async () => {
      let calls = 0;
      // The first request never gets an answer: the worker is killed while it waits.
      const target = await startReceiver((_, res) => {
        if (calls++ > 0) res.writeHead(200).end("ok");
      });
      receivers.push(target);
      const { accountId, subscriptionId } = await subscribedAccount(target.url);
      const first = spawnWorker();
      const id = await notify(accountId);
      await waitFor(() => target.requests.length > 0, 60_000, "the first attempt");
      first.kill("SIGKILL");
      await new Promise((resolve) => first.once("exit", resolve));
      expect((await deliveries(subscriptionId))[0]).toMatchObject({ status: "pending", attempts: 0 });

      const second = spawnWorker();
      await waitFor(
        async () => (await deliveries(subscriptionId))[0]?.status === "succeeded",
        60_000,
        "delivery after restart",
      );
      expect(target.requests.length).toBeGreaterThanOrEqual(2);
      expect(new Set(target.requests.map((request) => request.headers["webhook-id"]))).toEqual(new Set([id]));
      second.kill("SIGTERM");
      expect(await new Promise((resolve) => second.once("exit", (code) => resolve(code)))).toBe(0);
    },
  );
});

describe("a database that stops for 10 seconds", () => {
  const outage = outageDatabase("outbound-outage-");
  let worker: OutboundWorker | null = null;
  afterAll(async () => {
    await worker?.stop();
  });

  it(
    "loses nothing: a retry due during the outage and a notification " +
      "written after it are delivered without intervention",
    { timeout: 120_000 },
    async () => {
      const database = await outage.start();
      const seen = new Map<string, number[]>();
      const target = await startReceiver((request, res) => {
        const id = String(request.headers["webhook-id"]);
        const statuses = seen.get(id) ?? [];
        // Each notification's first attempt fails, so its retry (5 s later) falls inside the outage.
        const status = statuses.length === 0 ? 500 : 200;
        seen.set(id, [...statuses, status]);
        res.writeHead(status).end();
      });
      receivers.push(target);
      const pool = new pg.Pool({ connectionString: database.url, max: 2, connectionTimeoutMillis: 3_000 });
      pool.on("error", () => {});
      try {
        const account = await pool.query<{ id: string }>(
          "INSERT INTO accounts (name, plan) VALUES ('Outage', 'pro') RETURNING id",
        );
        const accountId = account.rows[0].id;
        await pool.query(
          "INSERT INTO webhook_subscriptions (id, account_id, url, event_types, " +
            "secret_ciphertext) VALUES ($1, $2, $3, '{*}', $4)",
          [newPublicId("subscription"), accountId, target.url, encryptSecret(generateSubscriptionSecret())],
        );
        // The stale-lock sweep is kept out of it (10 minutes): a job left locked by the outage, by a record or
        // a completion that failed, must come back by itself as soon as the database answers.
        worker = await startOutboundWorker({
          connectionString: database.url,
          concurrency: 4,
          log: () => {},
          staleLockMs: 600_000,
        });
        const [before] = await emitNotifications(pool, accountId, [
          { type: "lead.created", data: { id: "lead_before" } },
        ]);
        await waitFor(() => (seen.get(before)?.length ?? 0) >= 1, 20_000, "the first attempt");

        await outage.stop();
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        await outage.restart();

        const [after] = await emitNotifications(pool, accountId, [
          { type: "lead.updated", data: { id: "lead_after" } },
        ]);
        await waitFor(
          () => seen.get(before)?.includes(200) && seen.get(after)?.includes(200),
          60_000,
          "both deliveries after the outage",
        );
        // The receipt comes just before the attempt's record commits.
        const statuses = async () =>
          (
            await pool.query(
              "SELECT status::text AS status, count(*)::int AS n FROM outbound_deliveries GROUP BY status",
            )
          ).rows;
        await waitFor(async () => (await statuses()).length === 1, 10_000, "both deliveries recorded");
        expect(await statuses()).toEqual([{ status: "succeeded", n: 2 }]);
      } finally {
        await pool.end();
      }
    },
  );
});
