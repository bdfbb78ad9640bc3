import autocannon from "autocannon";
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import pg from "pg";
import { displayParts, generateApiKey, hashApiKey } from "@/lib/api-keys/key-format";
import { freePort } from "@/lib/platform/db/embedded";
import {
  checkTargets,
  CONNECTIONS,
  type LoadSummary,
  runBench,
  SECONDS,
  startNext,
  startPlainNext,
  startReferenceServer,
  stopProcess,
  summarise,
} from "./harness";

/*
 * npm run bench:auth — GET /api/public/zapier/me with a valid key under load (every request verified
 * against the database and counted against its rate limit), on the production server, on plain
 * `next start` of the same build (what the fast path gains), and on a bare node:http + pg server doing
 * the same lookup (tests/bench/auth-reference-server.ts). The production server as `npm start` runs it (tests/bench/
 * harness.ts), a throw-away embedded PostgreSQL, then autocannon with 50 connections.
 */

const WARMUP_SECONDS = 5;
const TARGETS = { requestsPerSecond: 1_000, p99: 100, ratio: 0.3 };

type Result = LoadSummary;

/** A fresh account and key for one server's run; the key exists only in this process. */
async function createKey(databaseUrl: string, label: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const key = generateApiKey();
    const { prefix, last4 } = displayParts(key);
    const account = await client.query<{ id: string }>("INSERT INTO accounts (name) VALUES ($1) RETURNING id", [
      `Benchmark ${label}`,
    ]);
    await client.query(
      "INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, " +
        "scopes) VALUES ($1, $2, $3, $4, $5, ARRAY['webhooks', 'read:leads'])",
      [account.rows[0].id, label, hashApiKey(key), prefix, last4],
    );
    return key;
  } finally {
    await client.end();
  }
}

async function waitForMe(url: string, key: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
      const body = await response.text();
      if (response.status === 200) return;
      throw new Error(`GET ${url} answered ${response.status}: ${body}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("GET ")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`server at ${url} did not start`);
}

async function load(url: string, key: string, seconds: number): Promise<Result> {
  return summarise(
    await autocannon({
      url,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [{ method: "GET", headers: { authorization: `Bearer ${key}` } }],
    }),
  );
}

async function measure(label: string, databaseUrl: string, start: (port: number) => ChildProcess): Promise<Result> {
  const port = await freePort();
  const child = start(port);
  try {
    const url = `http://127.0.0.1:${port}/api/public/zapier/me`;
    const key = await createKey(databaseUrl, label);
    await waitForMe(url, key, child);
    await load(url, key, WARMUP_SECONDS);
    console.log(`▸ ${label}: ${SECONDS} s, ${CONNECTIONS} connections…`);
    return await load(url, key, SECONDS);
  } finally {
    await stopProcess(child);
  }
}

function report(ours: Result, plainNext: Result, reference: Result): number {
  const columns = (cells: Array<string | number>) =>
    cells.map((cell, index) => (index === 0 ? String(cell).padEnd(28) : String(cell).padStart(10))).join("");
  console.log(
    `\nAPI key auth benchmark: GET /api/public/zapier/me, ` +
      `${os.cpus().length} CPUs, ${CONNECTIONS} connections, ${SECONDS} s`,
  );
  console.log(columns(["", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "requests"]));
  const rows = [
    ["App server (ours)", ours],
    ["Plain next start", plainNext],
    ["Reference node:http + pg", reference],
  ] as const;
  for (const [label, r] of rows)
    console.log(columns([label, r.requestsPerSecond.toFixed(0), r.p50, r.p99, r.errors, r.non2xx, r.total]));
  console.log(`Ratio ours/next start: ${(ours.requestsPerSecond / plainNext.requestsPerSecond).toFixed(2)}`);
  return checkTargets(ours, reference, TARGETS, ours.errors + ours.non2xx + reference.errors + reference.non2xx);
}

runBench("auth", async (database, env) => {
  const ours = await measure("App server", database.url, (port) => startNext(port, env));
  const plainNext = await measure("Plain next start", database.url, (port) => startPlainNext(port, env));
  const reference = await measure("Reference node:http + pg", database.url, (port) =>
    startReferenceServer("tests/bench/auth-reference-server.ts", port, env),
  );
  return report(ours, plainNext, reference);
});
