import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { newPublicId } from "@/lib/platform/ids";
import { metrics, recordCalendarSync } from "@/lib/platform/observability/metrics";
import { startMetricsServer } from "@/lib/observability/metrics-server";
import { freePort } from "@/lib/platform/db/embedded";
import { startOutboundWorker } from "@/lib/outbound/worker";
import { nextRouteTemplates } from "@/lib/server/next-routes";
import { createRequestListener } from "@/lib/server/request-listener";
import { listen, send } from "../../support/http-server";
import { startedChat, visitor } from "../../support/visitor-chat";
import { notify, startReceiver, subscribedAccount, waitFor } from "../outbound/support";

/*
 * GET /metrics on the production server's request handling (the real fast-route table, a stand-in for
 * Next.js with a real routes manifest), with METRICS_TOKEN set: the token, Prometheus' format (checked
 * by promtool, from Debian's prometheus package), and series that stay fixed however many ids arrive.
 */

const TOKEN = "metrics-test-token-0123456789";
process.env.METRICS_TOKEN = TOKEN;

let port: number;
let close: () => Promise<void>;
let manifestDir: string;

beforeAll(async () => {
  manifestDir = fs.mkdtempSync(path.join(os.tmpdir(), "routes-manifest-"));
  fs.writeFileSync(
    path.join(manifestDir, "routes-manifest.json"),
    JSON.stringify({
      staticRoutes: [{ page: "/overview", regex: "^/overview(?:/)?$" }],
      dynamicRoutes: [{ page: "/events/[id]", regex: "^/events/([^/]+?)(?:/)?$" }],
    }),
  );
  const listener = createRequestListener({
    nextHandler: (_req, res) => {
      res.statusCode = 200;
      res.end("page");
    },
    env: {},
    nextRoutes: nextRouteTemplates(manifestDir, "."),
  });
  ({ port, close } = await listen(listener));
});
afterAll(async () => {
  await close();
  fs.rmSync(manifestDir, { recursive: true, force: true });
});

const scrape = async () => {
  const response = await send(port, { path: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.body;
};

/** Debian's prometheus package's promtool; the README's setup installs it. */
function promtool(): string {
  const command = process.env.PROMTOOL_PATH ?? "promtool";
  if (spawnSync(command, ["--version"]).error)
    throw new Error(`${command} is missing: install Debian's prometheus package (see the README's setup)`);
  return command;
}

/** The application's series (not the process metrics, whose set varies with the runtime's own activity). */
const appSeries = (text: string) =>
  text.split("\n").filter((line) => /^(http_|webhook_|chat_|outbound_|calendar_|db_pool_)/.test(line));

/** Sends `n` requests of each kind, every one with ids never seen before. */
async function traffic(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const source = newPublicId("source");
    const lead = newPublicId("lead");
    const event = `evt-${crypto.randomUUID()}`;
    ids.push(source, lead, event);
    await Promise.all([
      send(port, { method: "POST", path: `/api/v1/events/webhook/${source}`, body: "{}" }),
      send(port, { path: `/api/public/leads/${lead}`, headers: { authorization: `Bearer sk_live_${lead}` } }),
      send(port, { path: `/events/${event}` }),
      send(port, { path: `/no-such-page/${event}` }),
    ]);
  }
  return ids;
}

describe("GET /metrics", () => {
  it("answers 401 without the token or with another one, in constant time against the configured token", async () => {
    expect((await send(port, { path: "/metrics" })).status).toBe(401);
    const wrong = await send(port, { path: "/metrics", headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(JSON.parse(wrong.body).error.code).toBe("unauthorized");
  });

  it("is a 404 once no token is configured", async () => {
    delete process.env.METRICS_TOKEN;
    try {
      const response = await send(port, { path: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(404);
    } finally {
      process.env.METRICS_TOKEN = TOKEN;
    }
  });

  it("counts requests by route template, method and status, fast routes and Next.js alike", async () => {
    await traffic(3);
    const text = await scrape();
    expect(text).toMatch(
      /^http_requests_total\{route="\/api\/v1\/events\/webhook\/\{sourceId\}",method="POST",status="404"\} \d+/m,
    );
    expect(text).toMatch(/^http_requests_total\{route="\/api\/public\/leads\/\{id\}",method="GET",status="401"\} \d+/m);
    expect(text).toMatch(/^http_requests_total\{route="\/events\/\[id\]",method="GET",status="200"\} 3$/m);
    expect(text).toMatch(/^http_requests_total\{route="unmatched",method="GET",status="200"\} 3$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="\+Inf",route="\/events\/\[id\]"/m);
    expect(text).toMatch(/^webhook_outcomes_total\{code="source_not_found"\} \d+/m);
    expect(text).toMatch(/^db_pool_connections\{pool="app",state="in_use"\} \d+/m);
    expect(text).toMatch(/^outbound_queue_depth\{stage="ready"\} \d+/m);
    expect(text).toMatch(/^# TYPE webhook_subscriptions gauge$/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it("keeps its series while 1,000 distinct sources, keys and paths send traffic; no label carries one", async () => {
    await traffic(10);
    const before = appSeries(await scrape()).map((line) => line.replace(/ [^ ]+$/, ""));
    const ids = await traffic(1_000);
    const text = await scrape();
    const after = appSeries(text).map((line) => line.replace(/ [^ ]+$/, ""));
    expect(after).toEqual(before);
    const labels = text.split("\n").filter((line) => line.includes("{"));
    for (const id of ids.filter((_, index) => index % 50 === 0))
      expect(labels.filter((line) => line.includes(id))).toEqual([]);
  }, 180_000);

  it("counts calendar syncs through recordCalendarSync", async () => {
    recordCalendarSync("succeeded");
    recordCalendarSync("failed");
    recordCalendarSync("failed");
    const text = await scrape();
    expect(text).toMatch(/^calendar_syncs_total\{outcome="succeeded"\} 1$/m);
    expect(text).toMatch(/^calendar_syncs_total\{outcome="failed"\} 2$/m);
  });

  it("is accepted by promtool check metrics (Debian's prometheus package)", async () => {
    const text = await scrape();
    // Exits non-zero, naming the problems, when the exposition is not valid or breaks its naming rules.
    expect(() => execFileSync(promtool(), ["check", "metrics"], { input: text, stdio: "pipe" })).not.toThrow();
  });
});

describe("metrics of the worker and the chat", () => {
  const value = (text: string, series: string) => {
    const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  it("count each delivery attempt by outcome and its lag since the notification was written", async () => {
    const before = await scrape();
    const receiver = await startReceiver();
    const worker = await startOutboundWorker({ concurrency: 2, log: () => {} });
    try {
      const { accountId } = await subscribedAccount(receiver.url);
      await notify(accountId);
      await waitFor(() => (receiver.requests.length ? receiver.requests : null), 40_000);
      const after = await waitFor(async () => {
        const text = await scrape();
        return value(text, 'outbound_attempts_total{outcome="succeeded"}') > 0 ? text : null;
      }, 40_000);
      const succeeded = 'outbound_attempts_total{outcome="succeeded"}';
      // At least ours: deliveries other test files left queued may be attempted meanwhile.
      expect(value(after, succeeded) - value(before, succeeded)).toBeGreaterThanOrEqual(1);
      const lagCount = 'outbound_delivery_lag_seconds_count{attempt="first"}';
      expect(value(after, lagCount) - value(before, lagCount)).toBeGreaterThanOrEqual(1);
      expect(after).toMatch(/^db_pool_connections\{pool="worker",state="in_use"\} \d+/m);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });

  it("count the subscriptions whose circuit is open (their receiver failing), read at each scrape", async () => {
    const openCircuits = async () => Number(/^outbound_circuits_open (\d+)$/m.exec(await scrape())?.[1]);
    const before = await openCircuits();
    expect(before).toBeGreaterThanOrEqual(0);
    const { accountId, subscriptionId } = await subscribedAccount();
    await db.pool.query(
      "INSERT INTO outbound_circuits (account_id, subscription_id, paused_until) VALUES ($1, $2, now() + interval '1 hour')",
      [accountId, subscriptionId],
    );
    expect(await openCircuits()).toBe(before + 1);
    await db.pool.query("DELETE FROM outbound_circuits WHERE account_id = $1", [accountId]);
    expect(await openCircuits()).toBe(before);
  });

  it("count visitor messages by how they were answered", async () => {
    const { widget, ip, conversationId, token } = await startedChat("When is the next event?");
    const answered = (await scrape()).match(/^chat_replies_total\{outcome="assistant"\} (\d+)$/m);
    expect(Number(answered?.[1])).toBeGreaterThanOrEqual(1);
    const send = (text: string) => visitor.send(widget.id, conversationId, { ip, token, body: { text } });
    expect((await send("I want to talk to a person")).status).toBe(201);
    expect((await send("Are you there?")).status).toBe(201);
    const text = await scrape();
    expect(text).toMatch(/^chat_replies_total\{outcome="handoff"\} 1$/m);
    expect(text).toMatch(/^chat_replies_total\{outcome="waiting_for_person"\} 1$/m);
  });

  it("are served by npm run worker's own /metrics (METRICS_PORT), with the same token", async () => {
    const port = await freePort();
    const server = await startMetricsServer(port, "127.0.0.1");
    try {
      expect((await send(port, { path: "/metrics" })).status).toBe(401);
      expect((await send(port, { path: "/elsewhere" })).status).toBe(404);
      const ok = await send(port, { path: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatch(/^# TYPE outbound_attempts_total counter$/m);
    } finally {
      await server.close();
    }
  });
});

describe("docs/operations.md and docs/prometheus", () => {
  const docs = path.resolve(__dirname, "../../../docs");

  it("describes every metric the application registers", async () => {
    await scrape();
    const names = (await metrics()!.registry.getMetricsAsJSON())
      .map((metric) => metric.name)
      .filter((name) => !/^(process_|nodejs_)/.test(name));
    expect(names.length).toBeGreaterThan(10);
    const text = fs.readFileSync(path.join(docs, "operations.md"), "utf8");
    expect(names.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });

  it("has alert rules and a scrape configuration that promtool accepts", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prometheus-config-"));
    try {
      fs.copyFileSync(path.join(docs, "prometheus/alerts.yml"), path.join(dir, "alerts.yml"));
      fs.writeFileSync(path.join(dir, "token"), TOKEN);
      const config = fs.readFileSync(path.join(docs, "prometheus/prometheus.yml"), "utf8");
      expect(config).toContain("/etc/prometheus/integration-access-metrics-token");
      fs.writeFileSync(
        path.join(dir, "prometheus.yml"),
        config.replaceAll("/etc/prometheus/integration-access-metrics-token", path.join(dir, "token")),
      );
      const rules = execFileSync(promtool(), ["check", "rules", path.join(dir, "alerts.yml")], { stdio: "pipe" });
      expect(rules.toString()).toMatch(/SUCCESS: 7 rules found/);
      expect(() =>
        execFileSync(promtool(), ["check", "config", path.join(dir, "prometheus.yml")], { stdio: "pipe" }),
      ).not.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
