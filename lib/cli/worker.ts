import { applyMigrations } from "../platform/db/migrate";
import { startOutboundWorker, workerConcurrency } from "../outbound/worker";
import { startBackgroundJobs } from "../server/background-jobs";
import { ensureSecrets, openDatabase } from "../platform/runtime/local-environment";
import { loopbackTargetsProblem } from "../webhook-subscriptions/addresses";
import { metricsPort, startMetricsServer } from "../observability/metrics-server";
import { startTracing, stopTracing } from "../platform/observability/tracing";
import { runCli } from "./run-cli";

/*
 * npm run worker — the outbound notification worker alone (docs/outbound-webhooks.md, "Delivery"), on
 * DATABASE_URL or, like npm start, the embedded database. Run as many as you like on any machines; web
 * instances can then leave delivery to them with OUTBOUND_WORKER=off. SIGTERM or SIGINT lets the
 * attempts in flight finish (each is bounded by its timeout), then exits. With METRICS_TOKEN and
 * METRICS_PORT it serves /metrics, with OTEL_EXPORTER_OTLP_ENDPOINT it traces each delivery
 * (docs/operations.md).
 */
runCli(async () => {
  // The worker makes the connections, so it refuses loopback targets behind an https URL as the server does.
  const loopbackProblem = loopbackTargetsProblem();
  if (loopbackProblem) {
    console.error(`\n✖ ${loopbackProblem}\n`);
    return 1;
  }
  ensureSecrets();
  await startTracing();
  const port = metricsPort();
  const metricsServer = port === null ? null : await startMetricsServer(port);
  if (port !== null) console.log(`▸ Metrics on port ${port} (/metrics, bearer METRICS_TOKEN)`);
  const database = await openDatabase();
  try {
    await applyMigrations(database.directUrl);
    const concurrency = workerConcurrency();
    const worker = await startOutboundWorker({ connectionString: database.directUrl, concurrency });
    console.log(`▸ Outbound notification worker running (concurrency ${concurrency}, pid ${process.pid})`);
    // Calendar feed syncs and the partitioned logs' coming days (lib/server/background-jobs.ts).
    const jobs = await startBackgroundJobs({ connectionString: database.directUrl });
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once("SIGINT", () => resolve("SIGINT"));
      process.once("SIGTERM", () => resolve("SIGTERM"));
    });
    console.log(`▸ ${signal}: finishing the deliveries in flight…`);
    await Promise.all([worker.stop(), jobs.stop()]);
  } finally {
    await metricsServer?.close();
    await stopTracing();
    await database.stop();
  }
});
