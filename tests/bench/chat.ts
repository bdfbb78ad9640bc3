import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import pg from "pg";
import { understand } from "@/lib/assistant/intent";
import { explainSearch, type SearchInput } from "@/lib/assistant/search";
import { freePort } from "@/lib/db/embedded";
import { CHAT_QUESTIONS } from "./chat-questions";
import { seedChatEvents } from "./chat-seed";
import { checkTargets, runMain, startBenchDatabase, stopProcess, summarise, type LoadSummary } from "./harness";

/*
 * npm run bench:chat — the assistant under load: 100,000 events in one account, 50 concurrent visitors
 * asking a mix of date and topic questions (tests/bench/chat-questions.ts) for BENCH_SECONDS (20).
 * "Ours" is the whole engine, answerVisitor (intent, dates, the search statement, reply text), behind a
 * bare node:http server (tests/bench/chat-server.ts): there are no chat routes yet. The reference is
 * node:http + pg running only the same search statements (tests/bench/chat-reference-server.ts). Also
 * prints the query plans of a topic, a typo and a date question.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const WARMUP_SECONDS = Math.min(5, SECONDS);
const CONNECTIONS = 50;
const TIMEZONE = "Europe/Berlin";
const TARGETS = { requestsPerSecond: 0, p99: 100, ratio: 0.5 };

async function prepare(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const account = await client.query<{ id: string }>("INSERT INTO accounts (name, timezone) VALUES ('Benchmark venue', $1) RETURNING id", [TIMEZONE]);
    const accountId = account.rows[0].id;
    const started = Date.now();
    await seedChatEvents(client, accountId, EVENTS);
    await client.query("VACUUM ANALYZE events");
    console.log(`▸ Seeded ${EVENTS.toLocaleString("en")} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return accountId;
  } finally {
    await client.end();
  }
}

async function printPlans(databaseUrl: string, accountId: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let seqScan = false;
  try {
    for (const question of ["pottery workshop", "wine tastng", "What's on tonight?"]) {
      const now = new Date();
      const intent = understand(question, now, TIMEZONE);
      const input: SearchInput = { accountId, now, range: intent.range, topic: intent.topic, typed: intent.typed, free: intent.free };
      const plan = await explainSearch(client, input);
      seqScan ||= /Seq Scan on events/.test(plan);
      console.log(`\nQuery plan for “${question}” (topic ${JSON.stringify(intent.topic)}, ${intent.range?.label ?? "no date"}):\n${plan}`);
    }
  } finally {
    await client.end();
  }
  return seqScan;
}

async function waitForAnswer(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    const status = await fetch(url).then((response) => response.status, () => 0);
    if (status === 200) return;
    if (status !== 0) throw new Error(`GET ${url} answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server at ${url} did not start`);
}

async function load(baseUrl: string, seconds: number): Promise<LoadSummary> {
  let next = 0;
  const request = { method: "GET", setupRequest: (raw: object) => ({ ...raw, path: `/ask?i=${next++ % CHAT_QUESTIONS.length}` }) };
  return summarise(await autocannon({ url: baseUrl, connections: CONNECTIONS, duration: seconds, requests: [request] }));
}

async function measure(label: string, script: string, env: NodeJS.ProcessEnv): Promise<LoadSummary> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", script, String(port)], { env, stdio: ["ignore", "ignore", "inherit"] });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForAnswer(`${baseUrl}/ask?i=0`, child);
    await load(baseUrl, WARMUP_SECONDS);
    console.log(`▸ ${label}: ${SECONDS} s, ${CONNECTIONS} connections…`);
    return await load(baseUrl, SECONDS);
  } finally {
    await stopProcess(child);
  }
}

function report(ours: LoadSummary, reference: LoadSummary, seqScan: boolean): number {
  const columns = (cells: Array<string | number>) => cells.map((cell, index) => (index === 0 ? String(cell).padEnd(34) : String(cell).padStart(10))).join("");
  console.log(`\nAssistant benchmark: ${EVENTS.toLocaleString("en")} events, ${CHAT_QUESTIONS.length} questions in turn, ${os.cpus().length} CPUs, ${CONNECTIONS} connections, ${SECONDS} s`);
  console.log("Ours = answerVisitor (intent + dates + search + reply) on node:http; reference = the same search SQL only, on node:http + pg.");
  console.log(columns(["", "replies/s", "p50 ms", "p99 ms", "errors", "non-2xx", "replies"]));
  for (const [label, r] of [["Assistant engine (ours)", ours], ["Reference: search SQL only", reference]] as const) {
    console.log(columns([label, r.requestsPerSecond.toFixed(0), r.p50, r.p99, r.errors, r.non2xx, r.total]));
  }
  console.log(seqScan ? "✖ A plan above has a sequential scan on events" : "✔ No sequential scan on events in the plans above");
  const code = checkTargets(ours, reference, TARGETS, ours.errors + ours.non2xx + reference.errors + reference.non2xx);
  return seqScan ? 1 : code;
}

runMain(async () => {
  const database = await startBenchDatabase("chat");
  try {
    const accountId = await prepare(database.url);
    const seqScan = await printPlans(database.url, accountId);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", NODE_ENV: "production", DATABASE_URL: database.url, BENCH_ACCOUNT_ID: accountId, BENCH_TIMEZONE: TIMEZONE };
    const ours = await measure("Assistant engine (ours)", "tests/bench/chat-server.ts", env);
    const reference = await measure("Reference: search SQL only", "tests/bench/chat-reference-server.ts", env);
    return report(ours, reference, seqScan);
  } finally {
    await database.dispose();
  }
});
