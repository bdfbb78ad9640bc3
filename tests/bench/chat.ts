import autocannon from "autocannon";
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import pg from "pg";
import { understand } from "@/lib/assistant/intent";
import { explainSearch, type SearchInput } from "@/lib/assistant/search";
import { freePort } from "@/lib/platform/db/embedded";
import { CHAT_QUESTIONS } from "./chat-questions";
import { seedChatEvents, seedChatExceptions } from "./chat-seed";
import {
  checkTargets,
  CONNECTIONS,
  type LoadSummary,
  runBench,
  SECONDS,
  startNext,
  startReferenceServer,
  stopProcess,
  summarise,
  waitForHealth,
} from "./harness";

/*
 * npm run bench:chat — the assistant under load: 100,000 events in one account, 50 concurrent visitors
 * asking a mix of date and topic questions (tests/bench/chat-questions.ts) for BENCH_SECONDS (20).
 * Three rows, in the same run:
 * - "Chat endpoint": the product path. The production server (server.mjs, as npm start runs it) answers
 *   POST /api/chat/{widget}/conversations/{id}/messages for 50 visitors' conversations: throttle
 *   counters, token check, the assistant, and the statement that stores the visitor's message, the
 *   reply and the message.created notification.
 * - "Assistant engine": answerVisitor alone (intent, dates, the search statement, reply text) behind a
 *   bare node:http server (tests/bench/chat-server.ts).
 * - The reference: node:http + pg running only the same search statements
 *   (tests/bench/chat-reference-server.ts).
 * The targets (p99, ratio) are checked on the engine row, the endpoint row is reported beside it. Also
 * prints the query plans of a topic, a typo and a date question.
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const WARMUP_SECONDS = Math.min(5, SECONDS);
const TIMEZONE = "Europe/Berlin";
const TARGETS = { requestsPerSecond: 0, p99: 100, ratio: 0.5 };

async function prepare(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const account = await client.query<{ id: string }>(
      "INSERT INTO accounts (name, timezone) VALUES ('Benchmark venue', $1) RETURNING id",
      [TIMEZONE],
    );
    const accountId = account.rows[0].id;
    const started = Date.now();
    await seedChatEvents(client, accountId, EVENTS);
    const exceptions = await seedChatExceptions(client, accountId, TIMEZONE);
    await client.query("VACUUM ANALYZE events, event_exceptions");
    console.log(
      `▸ Seeded ${EVENTS.toLocaleString("en")} events (${(EVENTS / 5).toLocaleString("en")} recurring, ` +
        `${exceptions.toLocaleString("en")} exceptions) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
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
      const input: SearchInput = {
        accountId,
        timeZone: TIMEZONE,
        now,
        range: intent.range,
        topic: intent.topic,
        typed: intent.typed,
        free: intent.free,
      };
      const plan = await explainSearch(client, input);
      seqScan ||= /Seq Scan on events/.test(plan);
      console.log(
        `\nQuery plan for “${question}” (topic ${JSON.stringify(intent.topic)}, ` +
          `${intent.range?.label ?? "no date"}):\n${plan}`,
      );
    }
  } finally {
    await client.end();
  }
  return seqScan;
}

async function waitForAnswer(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (status !== 0) throw new Error(`GET ${url} answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server at ${url} did not start`);
}

async function load(baseUrl: string, seconds: number): Promise<LoadSummary> {
  let next = 0;
  const request = {
    method: "GET",
    setupRequest: (raw: object) => ({ ...raw, path: `/ask?i=${next++ % CHAT_QUESTIONS.length}` }),
  };
  return summarise(
    await autocannon({ url: baseUrl, connections: CONNECTIONS, duration: seconds, requests: [request] }),
  );
}

async function measure(label: string, script: string, env: NodeJS.ProcessEnv): Promise<LoadSummary> {
  const port = await freePort();
  const child = startReferenceServer(script, port, env);
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

/* 50 visitors, one conversation each, started through the endpoint itself; then questions in turn. */
async function measureEndpoint(env: NodeJS.ProcessEnv, databaseUrl: string, accountId: string): Promise<LoadSummary> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const widgetId = "wid_" + "Bench".padEnd(22, "0");
  await client.query("INSERT INTO chat_widgets (id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
    widgetId,
    accountId,
  ]);
  await client.end();
  const port = await freePort();
  const child = startNext(port, env);
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, child);
    const visitors: Array<{ path: string; token: string }> = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const response = await fetch(`${baseUrl}/api/chat/${widgetId}/conversations`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          text: CHAT_QUESTIONS[i % CHAT_QUESTIONS.length],
          page_url: "https://venue.example/events",
        }),
      });
      if (response.status !== 201)
        throw new Error(`starting a conversation answered ${response.status}: ${await response.text()}`);
      const started = (await response.json()) as { conversation: { id: string }; visitor_token: string };
      visitors.push({
        path: `/api/chat/${widgetId}/conversations/${started.conversation.id}/messages`,
        token: started.visitor_token,
      });
    }
    let next = 0;
    const request = {
      method: "POST",
      setupRequest: (raw: object) => {
        const n = next++;
        const visitor = visitors[n % visitors.length];
        const body = JSON.stringify({ text: CHAT_QUESTIONS[n % CHAT_QUESTIONS.length] });
        return {
          ...raw,
          path: visitor.path,
          headers: { "content-type": "application/json", "x-visitor-token": visitor.token },
          body,
        };
      },
    };
    const run = async (seconds: number) =>
      summarise(await autocannon({ url: baseUrl, connections: CONNECTIONS, duration: seconds, requests: [request] }));
    await run(WARMUP_SECONDS);
    console.log(`▸ Chat endpoint (production server): ${SECONDS} s, ${CONNECTIONS} connections…`);
    return await run(SECONDS);
  } finally {
    await stopProcess(child);
  }
}

function report(ours: LoadSummary, reference: LoadSummary, endpoint: LoadSummary, seqScan: boolean): number {
  const columns = (cells: Array<string | number>) =>
    cells.map((cell, index) => (index === 0 ? String(cell).padEnd(34) : String(cell).padStart(10))).join("");
  console.log(
    `\nAssistant benchmark: ${EVENTS.toLocaleString("en")} events, ` +
      `${CHAT_QUESTIONS.length} questions in turn, ${os.cpus().length} CPUs, ${CONNECTIONS} connections, ` +
      `${SECONDS} s`,
  );
  console.log(
    "Endpoint = POST a visitor message on the production server (stores it, answers, stores the reply); " +
      "engine = answerVisitor on node:http; reference = the same search SQL only, on node:http + pg.",
  );
  console.log(columns(["", "replies/s", "p50 ms", "p99 ms", "errors", "non-2xx", "replies"]));
  for (const [label, r] of [
    ["Chat endpoint (production server)", endpoint],
    ["Assistant engine (ours)", ours],
    ["Reference: search SQL only", reference],
  ] as const) {
    console.log(columns([label, r.requestsPerSecond.toFixed(0), r.p50, r.p99, r.errors, r.non2xx, r.total]));
  }
  console.log(`Endpoint / reference: ${(endpoint.requestsPerSecond / reference.requestsPerSecond).toFixed(2)}`);
  console.log(
    seqScan ? "✖ A plan above has a sequential scan on events" : "✔ No sequential scan on events in the plans above",
  );
  const code = checkTargets(ours, reference, TARGETS, ours.errors + ours.non2xx + reference.errors + reference.non2xx);
  return seqScan ? 1 : code;
}

runBench("chat", async (database, appEnv) => {
  const accountId = await prepare(database.url);
  const seqScan = await printPlans(database.url, accountId);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: "",
    NODE_ENV: "production",
    DATABASE_URL: database.url,
    BENCH_ACCOUNT_ID: accountId,
    BENCH_TIMEZONE: TIMEZONE,
  };
  // The visitor throttles are counted on every request, far beyond their defaults.
  const serverEnv: NodeJS.ProcessEnv = {
    ...appEnv,
    OUTBOUND_WORKER: "off",
    CHAT_MESSAGES_PER_IP_PER_MINUTE: "1000000000",
    CHAT_MESSAGES_PER_WIDGET_PER_MINUTE: "1000000000",
    CHAT_CONVERSATIONS_PER_IP_PER_HOUR: "1000000000",
    CHAT_CONVERSATIONS_PER_WIDGET_PER_MINUTE: "1000000000",
  };
  const endpoint = await measureEndpoint(serverEnv, database.url, accountId);
  const ours = await measure("Assistant engine (ours)", "tests/bench/chat-server.ts", env);
  const reference = await measure("Reference: search SQL only", "tests/bench/chat-reference-server.ts", env);
  return report(ours, reference, endpoint, seqScan);
});
