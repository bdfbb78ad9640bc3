/*
 * Runs once when a Next.js server instance starts (during app.prepare() in server.mjs). First, with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, it starts tracing (docs/operations.md, "Traces"). Then three jobs:
 * - hand the production server its fast routes and request handling from inside this bundle
 *   (lib/server/registry.ts explains why and how);
 * - schedule the webhook's retention sweep inside the server itself (no separate cron to deploy); every
 *   instance schedules it and the sweep is safe to run concurrently;
 * - run the outbound notification worker in the server (docs/outbound-webhooks.md, "Delivery") unless
 *   OUTBOUND_WORKER=off, e.g. when `npm run worker` processes run elsewhere. Workers share the queue;
 *   the calendar feeds' sync (lib/calendar-feeds/worker.ts) runs on the same queue beside it, and so does
 *   the hourly job that creates the partitioned logs' coming days (lib/retention/partition-worker.ts),
 *   which also creates them at once, as does a server without the worker.
 * Node.js runtime only: the edge runtime has no pg.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { errorFields, logger } = await import("./lib/platform/observability/log");
  const { startTracing } = await import("./lib/platform/observability/tracing");
  // A tracing set-up that fails is reported, never a reason to stop serving.
  await startTracing().catch((error: unknown) => logger().error(errorFields(error), "Tracing did not start"));
  const { registerProductionServer } = await import("./lib/server/registry");
  registerProductionServer();
  if (process.env.OUTBOUND_WORKER !== "off") {
    const { startOutboundWorker } = await import("./lib/outbound/worker");
    startOutboundWorker().then(
      (worker) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void worker.stop());
      },
      (error: unknown) => logger().error(errorFields(error), "The outbound notification worker did not start"),
    );
    // Calendar feed syncs and the partitioned logs' coming days, on one job runner.
    const { startBackgroundJobs } = await import("./lib/server/background-jobs");
    startBackgroundJobs().then(
      (jobs) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void jobs.stop());
      },
      (error: unknown) =>
        logger().error(errorFields(error), "The background jobs (calendar feeds, log partitions) did not start"),
    );
  } else {
    const [{ createComingPartitions }, { db }] = await Promise.all([
      import("./lib/retention/partitioned-logs"),
      import("./lib/platform/db/client"),
    ]);
    createComingPartitions(db.pool).catch((error: unknown) =>
      logger().error(errorFields(error), "The partitioned logs' coming days were not created"),
    );
  }
  if (process.env.WEBHOOK_RETENTION_SWEEP === "off") return;
  const { startRetentionSchedule } = await import("./lib/retention/sweep");
  startRetentionSchedule();
}
