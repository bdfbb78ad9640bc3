import os from "node:os";
import pg from "pg";
import { buildListQuery, type ListLeadsOptions } from "@/lib/leads/read";
import { listLeadsQuerySchema } from "@/lib/leads/schemas";
import { seedLeads, type SeededLeads } from "./api-seed";
import {
  type BenchServer,
  comparedServers,
  CONNECTIONS,
  type LoadRequest,
  type LoadSummary,
  measureLoad,
  runBench,
  SECONDS,
  startServer,
  type StartedServer as Server,
  stopProcess,
} from "./harness";

/*
 * npm run bench:api — the leads API on 1,000,000 leads in one account: the first page, a page 500 pages
 * deep, a search for a rare name, and creates with distinct emails. Each row runs on the production
 * server (server.mjs, whose fast path serves lib/public-api/routes.ts) and on a bare node:http + pg
 * server running the same lib functions (tests/bench/api-reference-server.ts); the first page also on
 * plain `next start`. A throw-away embedded PostgreSQL, the build in .next-bench (tests/bench/harness.ts),
 * then autocannon with 50 connections. BENCH_SECONDS sets each measured run (default 20).
 */

const WARMUP_SECONDS = 3;
const DEEP_PAGES = 500;
const TARGETS = { readP99: 50, ratio: 0.5, postRequestsPerSecond: 1_000 };
const LEADS_PATH = "/api/public/leads";

type Row = { name: string; read: boolean; query: Record<string, string> | null; plainNext: boolean };
type Measured = { row: Row; server: string; summary: LoadSummary };

const listPath = (query: Record<string, string>) => `${LEADS_PATH}?${new URLSearchParams(query)}`;

let posted = 0;
/** Every create carries an email no lead has yet, across servers and warm-ups. */
function requestFor(row: Row, key: string): LoadRequest {
  const headers = { authorization: `Bearer ${key}` };
  if (row.query) return { method: "GET", path: listPath(row.query), headers };
  return {
    method: "POST",
    path: LEADS_PATH,
    headers: { ...headers, "content-type": "application/json" },
    setupRequest: (request) => {
      const n = ++posted;
      return {
        ...request,
        body: JSON.stringify({
          name: `Load Test ${n}`,
          email: `load.test.${n}@bench.example`,
          company: "Load Testing Ltd",
          stage: "new",
        }),
      };
    },
  };
}

async function getPage(
  server: Server,
  key: string,
  query: Record<string, string>,
): Promise<{ data: Array<{ id: string }>; next_cursor: string | null }> {
  const response = await fetch(`${server.baseUrl}${listPath(query)}`, { headers: { Authorization: `Bearer ${key}` } });
  const body = await response.text();
  if (response.status !== 200)
    throw new Error(`${server.label}: GET ${listPath(query)} answered ${response.status}: ${body}`);
  return JSON.parse(body);
}

/** Whether the server answers the first page yet: false while it does not listen, a throw on another answer. */
async function listsLeads(label: string, baseUrl: string, key: string): Promise<boolean> {
  const status = await fetch(`${baseUrl}${LEADS_PATH}?limit=1`, { headers: { Authorization: `Bearer ${key}` } }).then(
    (response) => response.arrayBuffer().then(() => response.status),
    () => null,
  );
  if (status !== null && status !== 200) throw new Error(`${label}: GET ${LEADS_PATH} answered ${status}`);
  return status === 200;
}

/** The cursor of page DEEP_PAGES + 1, by following next_cursor as a client would. */
async function walkCursor(server: Server, key: string): Promise<string> {
  let cursor: string | null = null;
  for (let page = 0; page < DEEP_PAGES; page++) {
    const body = await getPage(server, key, cursor ? { limit: "25", cursor } : { limit: "25" });
    if (!body.next_cursor) throw new Error(`the list ended after ${page + 1} pages`);
    cursor = body.next_cursor;
  }
  return cursor!;
}

/** Both servers must answer the same page before their speeds are compared. */
async function checkSameAnswers(servers: Server[], key: string, rows: Row[], seeded: SeededLeads): Promise<void> {
  for (const row of rows) {
    if (!row.query) continue;
    const answers = await Promise.all(
      servers.map((server) =>
        getPage(server, key, row.query!).then((page) => page.data.map((lead) => lead.id).join(",")),
      ),
    );
    if (answers.some((ids) => ids !== answers[0] || !ids))
      throw new Error(`${row.name}: the servers answer different pages`);
    if (row.query.q && answers[0] !== seeded.rareLeadId)
      throw new Error(`${row.name}: found ${answers[0]}, not the rare lead only`);
  }
}

/** EXPLAIN of exactly the statement listLeads runs for the row's query (parsed as the route parses it). */
async function explain(client: pg.Client, accountId: string, rows: Row[]): Promise<boolean> {
  let seqScans = 0;
  for (const row of rows) {
    if (!row.query) continue;
    const { limit, order, cursor, q, stage } = listLeadsQuerySchema.parse(row.query);
    const options: ListLeadsOptions = { limit, order, cursor, q, stage };
    const { text, values } = buildListQuery(accountId, options);
    const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
    const lines = plan.rows.map((line) => line["QUERY PLAN"]);
    if (lines.some((line) => line.includes("Seq Scan on leads"))) seqScans++;
    console.log(`\n— ${row.name}: ${text.replace(/\s+/g, " ")}\n${lines.map((line) => `  ${line}`).join("\n")}`);
  }
  console.log(
    seqScans === 0 ? "\n✔ No plan has a Seq Scan on leads" : `\n✖ ${seqScans} plan(s) have a Seq Scan on leads`,
  );
  return seqScans === 0;
}

function report(results: Measured[], rows: Row[], plansOk: boolean): number {
  const columns = (cells: Array<string | number>) =>
    cells
      .map((cell, index) => (index < 2 ? String(cell).padEnd(index === 0 ? 22 : 26) : String(cell).padStart(9)))
      .join("");
  console.log(
    `\nLeads API benchmark: ${os.cpus().length} CPUs, ${CONNECTIONS} connections, ` +
      `${SECONDS} s per run, after ${WARMUP_SECONDS} s of warm-up`,
  );
  console.log(columns(["row", "server", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "requests", "ratio"]));
  const checks: Array<[string, boolean]> = [["no Seq Scan on leads", plansOk]];
  for (const row of rows) {
    const of = (server: string) => results.find((result) => result.row === row && result.server === server)?.summary;
    const [ours, reference] = [of("App server (ours)")!, of("Reference node:http + pg")!];
    const ratio = ours.requestsPerSecond / reference.requestsPerSecond;
    for (const result of results.filter((candidate) => candidate.row === row)) {
      const r = result.summary;
      const shownRatio = result.server === "App server (ours)" ? ratio.toFixed(2) : "";
      console.log(
        columns([
          row.name,
          result.server,
          r.requestsPerSecond.toFixed(0),
          r.p50,
          r.p99,
          r.errors,
          r.non2xx,
          r.total,
          shownRatio,
        ]),
      );
    }
    if (row.read) checks.push([`${row.name}: p99 < ${TARGETS.readP99} ms`, ours.p99 < TARGETS.readP99]);
    else
      checks.push([
        `${row.name}: ≥ ${TARGETS.postRequestsPerSecond} req/s`,
        ours.requestsPerSecond >= TARGETS.postRequestsPerSecond,
      ]);
    checks.push([`${row.name}: ratio ≥ ${TARGETS.ratio}`, ratio >= TARGETS.ratio]);
    checks.push([
      `${row.name}: zero errors and non-2xx`,
      ours.errors + ours.non2xx + reference.errors + reference.non2xx === 0,
    ]);
  }
  const [pageOne] = rows;
  const pageOneRate = (server: string) =>
    results.find((result) => result.row === pageOne && result.server === server)!.summary.requestsPerSecond;
  console.log(
    `Ratio ours/next start (${pageOne.name}): ` +
      `${(pageOneRate("App server (ours)") / pageOneRate("Plain next start")).toFixed(2)}`,
  );
  console.log("\nTargets:");
  for (const [name, ok] of checks) console.log(`  ${ok ? "✔ met   " : "✖ missed"} ${name}`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

runBench("api", async (database, env) => {
  const servers: Server[] = [];
  try {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const seeded = await seedLeads(client);
    const { key } = seeded;
    const compared = comparedServers(env, "tests/bench/api-reference-server.ts");
    const start = async (server: BenchServer) => {
      const started = await startServer(server, (baseUrl) => listsLeads(server.label, baseUrl, key));
      servers.push(started);
      return started;
    };
    const reference = await start(compared.reference);
    const ours = await start(compared.ours);
    const plainNext = await start(compared.plainNext);

    const deepCursor = await walkCursor(ours, key);
    const rows: Row[] = [
      { name: "GET list, page 1", read: true, query: { limit: "25" }, plainNext: true },
      {
        name: `GET list, page ${DEEP_PAGES + 1}`,
        read: true,
        query: { limit: "25", cursor: deepCursor },
        plainNext: false,
      },
      { name: "GET search q=", read: true, query: { q: seeded.rareQuery, limit: "25" }, plainNext: false },
      { name: "POST create", read: false, query: null, plainNext: false },
    ];
    await checkSameAnswers([ours, reference, plainNext], key, rows, seeded);
    const plansOk = await explain(client, seeded.accountId, rows).finally(() => client.end());

    const results: Measured[] = [];
    for (const row of rows) {
      for (const server of row.plainNext ? [ours, reference, plainNext] : [ours, reference]) {
        const label = `${row.name} on ${server.label}`;
        const summary = await measureLoad(label, server.baseUrl, [requestFor(row, key)], WARMUP_SECONDS);
        results.push({ row, server: server.label, summary });
      }
    }
    return report(results, rows, plansOk);
  } finally {
    for (const server of servers) await stopProcess(server.child);
  }
});
