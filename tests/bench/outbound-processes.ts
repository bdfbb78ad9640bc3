import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { stopProcess } from "./harness";

/*
 * The processes of bench:outbound (outbound.ts) and its soak (outbound-soak.ts): the receiver in a process of
 * its own (outbound-receiver.ts), asked over IPC, and `npm run worker` on the bench database.
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
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/worker.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1",
      OUTBOUND_WORKER_CONCURRENCY: process.env.BENCH_CONCURRENCY ?? "10",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker running")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${code})`)));
  });
}
