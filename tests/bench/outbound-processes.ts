import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import { encryptSecret } from "@/lib/platform/crypto/secrets";
import { newPublicId } from "@/lib/platform/ids";
import { cpuProfileArgs, startBenchDatabase, stopProcess, type BenchDatabase } from "./harness";

/*
 * What bench:outbound (outbound.ts) and its soak (outbound-soak.ts) share: the receiver in a process of its own
 * (outbound-receiver.ts), asked over IPC, `npm run worker` on the bench database, and the setup both run on.
 */

/** A request the receiver got: its webhook-id, path, time, and whether it answered 2xx. */
export type Receipt = { id: string; path: string; at: number; ok: boolean };

export type Receiver = {
  url: string;
  pid: number;
  count: () => Promise<{ distinct: number; expected: number }>;
  /** From now on `count` also says how many distinct receipts are of these notifications. */
  expect: (ids: string[]) => Promise<void>;
  countFor: (id: string) => Promise<number>;
  receipts: () => Promise<Receipt[]>;
  reset: () => Promise<void>;
  /** Requests to `path` are answered 503 until the epoch time `until` (the soak's failing receiver). */
  failUntil: (path: string, until: number) => Promise<void>;
  stop: () => Promise<void>;
};

/** The receiver in its own process (outbound-receiver.ts), asked over IPC. */
export function startReceiver(): Promise<Receiver> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/bench/outbound-receiver.ts"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
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
          expect: (ids) => ask({ op: "expect", ids }),
          countFor: (id) => ask({ op: "countFor", id }),
          receipts: () => ask({ op: "receipts" }),
          reset: () => ask({ op: "reset" }),
          failUntil: (path, until) => ask({ op: "failUntil", path, until }),
          stop: () => stopProcess(child),
        });
        return;
      }
      pending.get(message.seq!)?.(message.result);
      pending.delete(message.seq!);
    });
  });
}

export function peakRss(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  // node itself (not the tsx wrapper), so the pid is the worker's for its peak RSS.
  const child = spawn(
    process.execPath,
    [...cpuProfileArgs(), "--conditions=react-server", "--import", "tsx", "lib/cli/worker.ts"],
    {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1",
        OUTBOUND_WORKER_CONCURRENCY: process.env.BENCH_CONCURRENCY ?? "10",
        NODE_ENV: "production",
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker running")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${code})`)));
  });
}

export type OutboundBench = { database: BenchDatabase; receiver: Receiver; pool: pg.Pool; accountId: string };

/**
 * A throw-away database, the receiver, and a pro account named `account` with one subscription on every event
 * type per secret, the i-th at `${receiver.url}/${i}`; `run` gets them, and they are stopped and removed after.
 */
export async function withOutboundBench<T>(
  label: string,
  setup: { account: string; secrets: string[] },
  run: (bench: OutboundBench) => Promise<T>,
): Promise<T> {
  const database = await startBenchDatabase(label);
  const receiver = await startReceiver();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // The database stops at the end while idle connections may remain: not a failure of the run.
  pool.on("error", () => {});
  try {
    const account = await pool.query<{ id: string }>(
      "INSERT INTO accounts (name, plan) VALUES ($1, 'pro') RETURNING id",
      [setup.account],
    );
    const accountId = account.rows[0].id;
    for (const [index, secret] of setup.secrets.entries()) {
      await pool.query(
        "INSERT INTO webhook_subscriptions (id, account_id, url, event_types, " +
          "secret_ciphertext) VALUES ($1, $2, $3, '{*}', $4)",
        [newPublicId("subscription"), accountId, `${receiver.url}/${index}`, encryptSecret(secret)],
      );
    }
    return await run({ database, receiver, pool, accountId });
  } finally {
    await pool.end();
    await receiver.stop();
    await database.dispose();
  }
}
