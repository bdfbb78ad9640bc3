import os from "node:os";
import pg from "pg";
import { displayParts, generateApiKey, hashApiKey } from "@/lib/api-keys/key-format";
import {
  type BenchServer,
  checkTargets,
  comparedServers,
  CONNECTIONS,
  type LoadSummary,
  measureLoad,
  runBench,
  SECONDS,
  startServer,
  stopProcess,
} from "./harness";

/*
 * npm run bench:auth — GET /api/public/zapier/me with a valid key under load (every request verified
 * against the database and counted against its rate limit), on the production server, on plain
 * `next start` of the same build (what the fast path gains), and on a bare node:http + pg server doing
 * the same lookup (tests/bench/auth-reference-server.ts). The production server as `npm start` runs it (tests/bench/
 * harness.ts), a throw-away embedded PostgreSQL, then autocannon with 50 connections.
 */

const ME_PATH = "/api/public/zapier/me";
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

/** Whether the server at `url` accepts the key yet: false while it does not listen, a throw on another answer. */
async function acceptsKey(url: string, key: string): Promise<boolean> {
  let answer: { status: number; body: string };
  try {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    answer = { status: response.status, body: await response.text() };
  } catch {
    return false;
  }
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${answer.body}`);
  return true;
}

async function measure(server: BenchServer, databaseUrl: string): Promise<Result> {
  const key = await createKey(databaseUrl, server.label);
  const started = await startServer(server, (baseUrl) => acceptsKey(`${baseUrl}${ME_PATH}`, key));
  try {
    const request = { method: "GET", headers: { authorization: `Bearer ${key}` } };
    return await measureLoad(server.label, `${started.baseUrl}${ME_PATH}`, [request], WARMUP_SECONDS);
  } finally {
    await stopProcess(started.child);
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
  const servers = comparedServers(env, "tests/bench/auth-reference-server.ts");
  const ours = await measure(servers.ours, database.url);
  const plainNext = await measure(servers.plainNext, database.url);
  const reference = await measure(servers.reference, database.url);
  return report(ours, plainNext, reference);
});
