import "server-only";
import type { Gauge } from "prom-client";
import crypto from "node:crypto";
import { readQueueStats, type QueueStats } from "@/lib/outbound/queue-stats";
import { db } from "@/lib/platform/db/client";
import { apiNotFoundResponse, errorResponse } from "@/lib/platform/http/api-error";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { metrics, scrapeGauge, type MetricSet } from "@/lib/platform/observability/metrics";
import { observePool } from "@/lib/platform/observability/pool-metrics";

/*
 * GET /metrics (docs/operations.md, "Metrics"): Prometheus' text format, only when METRICS_TOKEN is set
 * and then only for `Authorization: Bearer <METRICS_TOKEN>`; a 404 like any unknown path otherwise. The
 * gauges of the database (the outbound queue, subscriptions by status) and of the pool are read here,
 * at scrape time, so nothing is counted for them on the hot paths.
 */

function tokenMatches(header: string | null, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(header ?? "");
  if (!match) return false;
  // Digests of equal length, compared in constant time: neither content nor length leaks through timing.
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(match[1]), digest(token));
}

const COLLECTORS = Symbol.for("integration-access.metrics-collectors");

function registerCollectors(set: MetricSet): void {
  const holder = globalThis as { [COLLECTORS]?: boolean };
  if (holder[COLLECTORS]) return;
  holder[COLLECTORS] = true;
  observePool(set, "app", () => db.pool);
  // One read of the database per scrape, shared by the gauges below.
  let pending: ReturnType<typeof readQueueStats> | null = null;
  const stats = () => {
    pending ??= readQueueStats(db.pool)
      .catch((error: unknown) => {
        logger().warn(errorFields(error), "metrics: reading the outbound queue failed");
        return null;
      })
      .finally(() => setTimeout(() => (pending = null), 0));
    return pending;
  };
  // Each gauge is set afresh from the scrape's one reading; none when the database could not be read.
  const statsGauge = <L extends string>(
    name: string,
    help: string,
    label: L,
    fill: (gauge: Gauge<L>, current: QueueStats) => void,
  ) =>
    scrapeGauge(set, name, help, [label], async (gauge) => {
      const current = await stats();
      gauge.reset();
      if (current) fill(gauge, current);
    });
  // A gauge per label value, from the scrape's reading.
  const byLabel = (gauge: Gauge<string>, values: Record<string, number>) => {
    for (const [label, value] of Object.entries(values)) gauge.labels(label).set(value);
  };
  statsGauge(
    "outbound_queue_depth",
    "Outbound queue entries by stage (fan_out messages; ready, scheduled, running deliveries).",
    "stage",
    (gauge, current) =>
      byLabel(gauge, {
        fan_out: current.fanOut,
        ready: current.ready,
        scheduled: current.scheduled,
        running: current.running,
      }),
  );
  statsGauge(
    "outbound_queue_oldest_seconds",
    "Age of the oldest entry no worker has taken yet, by stage.",
    "stage",
    (gauge, current) => byLabel(gauge, { fan_out: current.fanOutOldestSeconds, ready: current.readyOldestSeconds }),
  );
  scrapeGauge(
    set,
    "outbound_circuits_open",
    "Subscriptions whose receiver is failing: deliveries wait for a probe.",
    [],
    async (gauge) => {
      const current = await stats();
      // A gauge without labels cannot go missing (reset() would report 0, "nothing failing"): NaN says unknown.
      gauge.set(current ? current.openCircuits : Number.NaN);
    },
  );
  statsGauge(
    "webhook_subscriptions",
    "Outbound webhook subscriptions by status (every account).",
    "status",
    (gauge, current) => {
      for (const { status, count } of current.subscriptions) gauge.labels(status).set(count);
    },
  );
}

export async function metricsRoute(request: Request): Promise<Response> {
  const set = metrics();
  const token = process.env.METRICS_TOKEN;
  if (!set || !token) return apiNotFoundResponse();
  if (!tokenMatches(request.headers.get("authorization"), token))
    return errorResponse(401, "unauthorized", "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  registerCollectors(set);
  const body = await set.registry.metrics();
  return new Response(request.method === "HEAD" ? null : body, {
    headers: { "Content-Type": set.registry.contentType, "Cache-Control": "no-store" },
  });
}
