import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import crypto from "node:crypto";
import pg from "pg";
import { Agent, request } from "undici";
import { encryptSecret } from "@/lib/events-webhook/secrets";
import { generatePublicId } from "@/lib/ids";
import { emitNotifications } from "@/lib/outbound/emit";
import { signatureHeader } from "@/lib/outbound/signing";
import { generateSubscriptionSecret } from "@/lib/webhook-subscriptions/model";
import { percentile, runMain, startBenchDatabase, stopProcess } from "./harness";
import { processTree } from "./load";

/*
 * npm run bench:outbound — outbound notification delivery (docs/outbound-webhooks.md, "Delivery"):
 * BENCH_NOTIFICATIONS (default 10,000) notifications written in batches to an account with 2 active
 * subscriptions on a local receiver, i.e. twice as many deliveries, delivered by `npm run worker` in a
 * child process with BENCH_CONCURRENCY (default 10). Reports the time until all are received,
 * deliveries/s, lag from commit to receipt (p50, p99), the CPU each process spent per delivery, the
 * worker's peak RSS, lost and duplicate deliveries; then a bare reference that POSTs the same signed
 * payloads from a simple loop in this process with the same concurrency. The receiver runs in a process
 * of its own (outbound-receiver.ts), so that both the worker and the reference reach it across processes
 * and neither the writer nor the reference loop shares its event loop. Both are warmed up first with
 * BENCH_WARMUP (default 2,000) notifications' worth of deliveries, as every benchmark here warms up what it
 * measures (a just-started worker ran its first deliveries at a third of its speed). Then, before the
 * burst, with the queue idle, single notifications measure the lag of an idle queue (target p99 < 2 s).
 * Targets: 0 lost, 0 duplicates, ratio ≥ 0.5, idle p99 lag < 2 s.
 */

const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const BATCH = 500;
const IDLE_PROBES = 40;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
process.env.APP_ENCRYPTION_KEY ??= crypto.randomBytes(32).toString("base64");

type Receipt = { id: string; path: string; at: number };

type Receiver = {
  url: string;
  pid: number;
  count: () => Promise<{ distinct: number; total: number }>;
  countFor: (id: string) => Promise<number>;
  receipts: () => Promise<Receipt[]>;
  reset: () => Promise<void>;
  stop: () => Promise<void>;
};

/** The receiver in its own process (outbound-receiver.ts), asked over IPC. */
function startReceiver(): Promise<Receiver> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/bench/outbound-receiver.ts"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map<number, (result: unknown) => void>();
  let seq = 0;
  const ask = <T>(request: object) =>
    new Promise<T>((resolve) => {
      pending.set(++seq, resolve as (result: unknown) => void);
      child.send({ seq, request });
    });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the receiver exited with code ${code}`)));
    child.on("message", (message: { ready?: string; seq?: number; result?: unknown }) => {
      if (message.ready) {
        resolve({
          url: message.ready,
          pid: child.pid!,
          count: () => ask({ op: "count" }),
          countFor: (id) => ask({ op: "countFor", id }),
          receipts: () => ask({ op: "receipts" }),
          reset: () => ask({ op: "reset" }),
          stop: () => stopProcess(child),
        });
        return;
      }
      pending.get(message.seq!)?.(message.result);
      pending.delete(message.seq!);
    });
  });
}

function peakRss(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function startWorker(databaseUrl: string): Promise<ChildProcess> {
  // node itself (not the tsx wrapper), so the pid is the worker's for its peak RSS.
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/worker.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1", OUTBOUND_WORKER_CONCURRENCY: String(CONCURRENCY), NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker running")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${code})`)));
  });
}

/** CPU seconds (user + system) used so far by these processes; 0 for one that is gone. */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended.
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** The postmaster of the bench database and every backend and helper process it started. */
function postgresPids(dataDir: string): number[] {
  return processTree(Number(fs.readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]));
}

type ReferenceJob = { id: string; body: string; index: number };

/** One POST of a signed job from the reference loop; resolves once the answer's body is read. */
type ReferencePost = (url: string, headers: Record<string, string>, body: string) => Promise<void>;

/** The reference: each job POSTed, signed, from a plain loop with CONCURRENCY requests in flight. */
async function referenceLoop(jobs: ReferenceJob[], url: string, send: ReferencePost, secrets: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = {
          "content-type": "application/json",
          "webhook-id": job.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signatureHeader([secrets[job.index]], job.id, timestamp, job.body),
        };
        await send(`${url}/${job.index}`, headers, job.body);
      }
    }),
  );
}

/** The reference's two clients: node:http, and undici (the client the worker uses). */
function referenceClients(): { name: string; send: ReferencePost; close: () => Promise<void> }[] {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const nodeHttp: ReferencePost = (url, headers, body) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(url, { method: "POST", agent, headers });
      request.on("response", (response) => response.resume().on("end", resolve));
      request.on("error", reject);
      request.end(body);
    });
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const viaUndici: ReferencePost = async (url, headers, body) => {
    const response = await request(url, { method: "POST", headers, body, dispatcher });
    await response.body.dump();
  };
  return [
    { name: "node:http", send: nodeHttp, close: async () => agent.destroy() },
    { name: "undici", send: viaUndici, close: () => dispatcher.close() },
  ];
}

const waitUntil = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

const ms = (value: number) => `${Math.round(value)} ms`;

runMain(async () => {
  console.log(`▸ bench:outbound — ${NOTIFICATIONS} notifications × 2 subscriptions, concurrency ${CONCURRENCY}`);
  const database = await startBenchDatabase("outbound");
  const receiver = await startReceiver();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // The database stops at the end while idle connections may remain: not a failure of the run.
  pool.on("error", () => {});
  let worker: ChildProcess | null = null;
  try {
    const account = await pool.query<{ id: string }>("INSERT INTO accounts (name, plan) VALUES ('Bench', 'pro') RETURNING id");
    const accountId = account.rows[0].id;
    const secrets = [generateSubscriptionSecret(), generateSubscriptionSecret()];
    for (const [index, secret] of secrets.entries()) {
      await pool.query("INSERT INTO webhook_subscriptions (id, account_id, url, event_types, secret_ciphertext) VALUES ($1, $2, $3, '{*}', $4)", [
        generatePublicId("whsub_"),
        accountId,
        `${receiver.url}/${index}`,
        encryptSecret(secret),
      ]);
    }
    worker = await startWorker(database.url);
    const commits = new Map<string, number>();
    const writeBurst = async (count: number, label: string) => {
      for (let offset = 0; offset < count; offset += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, count - offset) }, (_, i) => ({
          type: "event.updated",
          data: { id: crypto.randomUUID(), title: `${label} ${offset + i}`, description: "x".repeat(200) },
        }));
        const ids = await emitNotifications(pool, accountId, batch);
        const committed = Date.now();
        for (const id of ids) commits.set(id, committed);
      }
    };

    // Warm-up, as every benchmark here warms up what it measures: a worker that just started runs its
    // first thousands of deliveries on cold code, new connections and cold caches (the reference loop
    // below is warmed up the same way). Then the queue is left idle.
    await writeBurst(WARMUP, "Warm-up");
    await waitUntil(async () => (await receiver.count()).distinct >= 2 * WARMUP, 10 * 60_000);
    await receiver.reset();
    commits.clear();
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // Idle queue: one notification at a time, each received before the next.
    for (let i = 0; i < IDLE_PROBES; i++) {
      const [id] = await emitNotifications(pool, accountId, [{ type: "lead.created", data: { id: `lead_probe_${i}` } }]);
      commits.set(id, Date.now());
      await waitUntil(async () => (await receiver.countFor(id)) === 2, 10_000);
    }
    const idleLags = (await receiver.receipts()).map((r) => r.at - commits.get(r.id)!).sort((a, b) => a - b);
    await receiver.reset();
    commits.clear();
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // The burst. CPU is counted for the database and the worker (their backends connect at start, and
    // the count of one that exits during the burst is lost) and for this process (writer and receiver).
    const databasePids = postgresPids(database.dataDir);
    const cpuBefore = { database: cpuSeconds(databasePids), worker: cpuSeconds([worker.pid!]), receiver: cpuSeconds([receiver.pid]), bench: process.cpuUsage() };
    const started = Date.now();
    await writeBurst(NOTIFICATIONS, "Event");
    const written = (Date.now() - started) / 1000;
    const expected = NOTIFICATIONS * 2;
    await waitUntil(async () => (await receiver.count()).distinct >= expected, 30 * 60_000);
    const cpu = {
      database: cpuSeconds(databasePids) - cpuBefore.database,
      worker: cpuSeconds([worker.pid!]) - cpuBefore.worker,
      receiver: cpuSeconds([receiver.pid]) - cpuBefore.receiver,
      bench: (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(cpuBefore.bench)),
    };
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // late duplicates
    const rss = peakRss(worker.pid!);
    const receipts = await receiver.receipts();
    const finished = Math.max(...receipts.map((r) => r.at));
    const received = new Set(receipts.map((r) => `${r.id} ${r.path}`)).size;
    const duplicates = receipts.length - received;
    const lags = receipts.map((r) => r.at - commits.get(r.id)!).sort((a, b) => a - b);
    const seconds = (finished - started) / 1000;
    const ours = received / seconds;
    await stopProcess(worker);
    worker = null;

    // The reference: the same signed payloads POSTed from a plain loop with the same concurrency, after a
    // warm-up of as many requests as the worker's.
    const { rows } = await pool.query<{ id: string; body: string }>("SELECT id, payload::text AS body FROM outbound_messages WHERE id = ANY ($1::text[])", [[...commits.keys()]]);
    const jobs = rows.flatMap((row) => [0, 1].map((index) => ({ ...row, index })));
    // Each client is measured and the faster one is the reference, so that the ratio is not flattered
    // by the choice of client.
    const references: string[] = [];
    let reference = 0;
    for (const client of referenceClients()) {
      await referenceLoop(jobs.slice(0, 2 * WARMUP), receiver.url, client.send, secrets);
      await receiver.reset();
      const referenceStarted = Date.now();
      await referenceLoop(jobs, receiver.url, client.send, secrets);
      const rate = jobs.length / ((Date.now() - referenceStarted) / 1000);
      await client.close();
      references.push(`${client.name} ${rate.toFixed(0)}/s`);
      reference = Math.max(reference, rate);
    }

    const ratio = ours / reference;
    console.log(`Idle queue: lag p50 ${ms(percentile(idleLags, 0.5))}, p99 ${ms(percentile(idleLags, 0.99))} (${IDLE_PROBES} single notifications)`);
    console.log(`Burst: ${received}/${expected} deliveries received in ${seconds.toFixed(1)} s — ${ours.toFixed(0)} deliveries/s (the notifications were written in the first ${written.toFixed(1)} s)`);
    const whileWriting = receipts.filter((r) => r.at - started <= written * 1000).length;
    console.log(
      `Rate while the notifications were being written (the writer and PostgreSQL's inserts share the 2 cores): ${(whileWriting / written).toFixed(0)}/s; after: ${((received - whileWriting) / (seconds - written)).toFixed(0)}/s`,
    );
    console.log(`Burst lag from commit to receipt: p50 ${ms(percentile(lags, 0.5))}, p99 ${ms(percentile(lags, 0.99))}`);
    const perDelivery = (seconds: number) => `${Math.round((seconds / expected) * 1e6)} µs`;
    console.log(
      `CPU per delivery during the burst: PostgreSQL ${perDelivery(cpu.database)}, worker ${perDelivery(cpu.worker)}, receiver ${perDelivery(cpu.receiver)}, writer (this process) ${perDelivery(cpu.bench)}`,
    );
    console.log(`Worker peak RSS: ${(rss / 1024 / 1024).toFixed(0)} MB; lost ${expected - received}, duplicates ${duplicates}`);
    console.log(`Reference loop: ${references.join(", ")}; ratio ours/faster reference ${ratio.toFixed(2)}`);
    const checks: [string, boolean][] = [
      ["0 lost", received === expected],
      ["0 duplicates", duplicates === 0],
      ["ratio ≥ 0.5", ratio >= 0.5],
      ["idle p99 lag < 2 s", percentile(idleLags, 0.99) < 2_000],
    ];
    for (const [label, ok] of checks) console.log(`${ok ? "✓" : "✖"} ${label}`);
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    if (worker) await stopProcess(worker);
    await pool.end();
    await receiver.stop();
    await database.dispose();
  }
});
