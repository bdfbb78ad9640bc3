import type { ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import pg from "pg";
import { freePort } from "@/lib/platform/db/embedded";
import { encryptSecret, generateSecret } from "@/lib/platform/crypto/secrets";
import { newPublicId } from "@/lib/platform/ids";
import { generateSubscriptionSecret } from "@/lib/webhook-subscriptions/model";
import {
  checkTargets,
  runBench,
  SECONDS,
  startNext,
  startPlainNext,
  startReferenceServer,
  stopProcess,
} from "./harness";
import { DISTINCT_EVENTS, runLoad, type LoadResult } from "./load";

/*
 * npm run bench:webhook — the webhook under load on the production server (server.mjs, as `npm start`
 * runs it), against plain `next start` of the same build (what the fast path gains) and a bare
 * node:http + pg server doing the same work (tests/bench/reference-server.ts). Production build in .next-bench (rebuilt
 * only when the source changed), a throw-away embedded PostgreSQL, a fresh pro account and source per server, then
 * autocannon. BENCH_SECONDS sets the measured duration (default 20); each server is warmed up for 5 s first. The
 * production server runs three times: as is, and twice with one active outbound subscription on `event.*` on the
 * account. With OUTBOUND_WORKER=off, the deployment the README advises for a busy web instance, ingest pays for the
 * outbox only (the message and its fan-out row), and the target applies: at most 25% slower than without. With the
 * in-process worker relaying and delivering every notification to a local receiver while the load runs, on the same 2
 * cores: printed, for what sharing the machine costs.
 */

const WARMUP_SECONDS = 5;
const TARGETS = { requestsPerSecond: 800, p99: 100, ratio: 0.3, subscribedSlowdown: 0.25 };

type Measured = LoadResult & { rows: string };

/** The subscription's receiver: answers 204 and counts what arrives. */
function startReceiver(): Promise<{ url: string; received: () => number; close: () => void }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        received: () => received,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function subscribe(databaseUrl: string, accountId: string, url: string): Promise<void> {
  await withClient(databaseUrl, (client) =>
    client.query(
      "INSERT INTO webhook_subscriptions (id, account_id, url, event_types, " +
        "secret_ciphertext) VALUES ($1, $2, $3, '{event.*}', $4)",
      [newPublicId("subscription"), accountId, url, encryptSecret(generateSubscriptionSecret())],
    ),
  );
}

async function createSource(databaseUrl: string, label: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const secret = generateSecret();
    const publicId = newPublicId("source");
    const account = await client.query<{ id: string }>(
      `INSERT INTO accounts (name, plan) VALUES ($1, 'pro') RETURNING id`,
      [`Benchmark ${label}`],
    );
    // The rate limit is raised so the benchmark measures ingestion, not refusals.
    await client.query(
      `INSERT INTO webhook_sources (account_id, public_id, name, secret_ciphertext, rate_limit_per_minute)
        VALUES ($1, $2, $3, $4, 10000000)`,
      [account.rows[0].id, publicId, label, encryptSecret(secret)],
    );
    return { publicId, secret, accountId: account.rows[0].id };
  } finally {
    await client.end();
  }
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/v1/events/webhook/src_000000000000000000000000`, {
      method: "POST",
    }).then(
      (response) => response.arrayBuffer().then(() => true),
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server on port ${port} did not start`);
}

async function measure(
  label: string,
  databaseUrl: string,
  start: (port: number) => ChildProcess,
  subscriptionUrl?: string,
): Promise<Measured> {
  const port = await freePort();
  const child = start(port);
  try {
    await waitForPort(port, child);
    const warmup = await createSource(databaseUrl, `${label} warm-up`);
    if (subscriptionUrl) await subscribe(databaseUrl, warmup.accountId, subscriptionUrl);
    await runLoad({ port, ...warmup, seconds: WARMUP_SECONDS, serverPid: child.pid! });
    const source = await createSource(databaseUrl, label);
    if (subscriptionUrl) await subscribe(databaseUrl, source.accountId, subscriptionUrl);
    console.log(`▸ ${label}: ${SECONDS} s, 50 connections…`);
    const result = await runLoad({ port, ...source, seconds: SECONDS, serverPid: child.pid! });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const counts = await client.query(
      `SELECT (SELECT count(*) FROM events WHERE account_id = $1) AS events, (SELECT count(*) FROM webhook_deliveries
        WHERE account_id = $1) AS deliveries`,
      [source.accountId],
    );
    await client.end();
    return { ...result, rows: `${counts.rows[0].events} events, ${counts.rows[0].deliveries} delivery log rows` };
  } finally {
    await stopProcess(child);
  }
}

function report(
  ours: Measured,
  queued: Measured,
  subscribed: Measured & { delivered: number },
  plainNext: Measured,
  reference: Measured,
): number {
  const columns = ["req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "RSS MB", "requests"];
  const line = (label: string, r: LoadResult) =>
    label.padEnd(28) +
    [r.requestsPerSecond.toFixed(0), r.p50, r.p99, r.errors, r.non2xx, r.peakRssMb, r.total]
      .map((value, i) => String(value).padStart(i === 0 ? 10 : 9))
      .join("");
  console.log(
    `\nEvents webhook benchmark: ${os.cpus().length} CPUs, 50 connections, ${SECONDS} s, ` +
      `signed upserts over ${DISTINCT_EVENTS.toLocaleString("en-US")} events`,
  );
  console.log("".padEnd(28) + columns.map((name, i) => name.padStart(i === 0 ? 10 : 9)).join(""));
  console.log(line("App server (ours)", ours));
  console.log(line("+ subscription, worker off", queued));
  console.log(line("+ subscription and worker", subscribed));
  console.log(line("Plain next start", plainNext));
  console.log(line("Reference node:http + pg", reference));
  console.log(`Rows written: ours ${ours.rows}; next start ${plainNext.rows}; reference ${reference.rows}`);
  console.log(`Ratio ours/next start: ${(ours.requestsPerSecond / plainNext.requestsPerSecond).toFixed(2)}`);
  const slower = (r: LoadResult) => `${((1 - r.requestsPerSecond / ours.requestsPerSecond) * 100).toFixed(0)}% slower`;
  console.log(
    `With one active event.* subscription: ${queued.requestsPerSecond.toFixed(0)} req/s vs ` +
      `${ours.requestsPerSecond.toFixed(0)} without, ${slower(queued)} ` +
      `(worker off: every notification queued); with the in-process worker on the same ` +
      `cores ${subscribed.requestsPerSecond.toFixed(0)} req/s, ` +
      `${slower(subscribed)}, ${subscribed.delivered} notifications delivered to the receiver during warm-up and run`,
  );
  const slowdown = 1 - queued.requestsPerSecond / ours.requestsPerSecond;
  const subscribedOk =
    slowdown <= TARGETS.subscribedSlowdown &&
    queued.errors + queued.non2xx + subscribed.errors + subscribed.non2xx === 0;
  console.log(
    `Target: ${subscribedOk ? "✔" : "✖"} ingest at most ${TARGETS.subscribedSlowdown * 100}% ` +
      `slower with the subscription (worker off), zero errors and non-2xx`,
  );
  const code = checkTargets(ours, reference, TARGETS, ours.errors + ours.non2xx);
  return subscribedOk ? code : 1;
}

runBench("webhook", async (database, env) => {
  // The bench process encrypts the secrets it inserts; the servers must decrypt with the same key.
  process.env.APP_ENCRYPTION_KEY = env.APP_ENCRYPTION_KEY;
  const ours = await measure("App server", database.url, (port) => startNext(port, env));
  const receiver = await startReceiver();
  const subscribedEnv = { ...env, OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1" };
  const subscribed = await measure(
    "App server + event.* subscription",
    database.url,
    (port) => startNext(port, subscribedEnv),
    receiver.url,
  ).then(
    (result) => ({ ...result, delivered: receiver.received() }),
    (error: unknown) => {
      receiver.close();
      throw error;
    },
  );
  receiver.close();
  // After the worker's run: its worker would otherwise spend the run retrying these never-delivered notifications.
  const queuedEnv = { ...env, OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1", OUTBOUND_WORKER: "off" };
  const queued = await measure(
    "App server + event.* subscription, worker off",
    database.url,
    (port) => startNext(port, queuedEnv),
    "http://127.0.0.1:9/queued",
  );
  // The later servers' workers would otherwise spend their runs on those notifications.
  await withClient(database.url, (client) => client.query("UPDATE webhook_subscriptions SET status = 'disabled'"));
  const plainNext = await measure("Plain next start", database.url, (port) => startPlainNext(port, env));
  const reference = await measure("Reference node:http + pg", database.url, (port) =>
    startReferenceServer("tests/bench/reference-server.ts", port, env),
  );
  return report(ours, queued, subscribed, plainNext, reference);
});
