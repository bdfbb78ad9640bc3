import "server-only";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { startTracing } from "@/lib/platform/observability/tracing";
import { registerProductionServer } from "./registry";

/*
 * What a Next.js server instance starts once (instrumentation.ts calls it, in the Node.js runtime only):
 * - tracing, with OTEL_EXPORTER_OTLP_ENDPOINT set (docs/operations.md, "Traces");
 * - the production server's fast routes and request handling, handed over from inside this bundle
 *   (registry.ts explains why and how);
 * - the outbound notification worker (docs/outbound-webhooks.md, "Delivery") unless OUTBOUND_WORKER=off,
 *   e.g. when `npm run worker` processes run elsewhere. Workers share the queue; the calendar feeds' sync
 *   and the hourly job that creates the partitioned logs' coming days run beside it on one job runner
 *   (background-jobs.ts), which also creates those days at once, as does a server without the worker;
 * - the webhook's retention sweep, inside the server itself (no separate cron to deploy); every instance
 *   schedules it and the sweep is safe to run concurrently.
 * A part that fails to start is logged, never a reason to stop serving.
 */

const stopOnSignal = (stop: () => Promise<void>) => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop());
};

export async function startInstance(): Promise<void> {
  await startTracing().catch((error: unknown) => logger().error(errorFields(error), "Tracing did not start"));
  registerProductionServer();
  if (process.env.OUTBOUND_WORKER !== "off") {
    const { startOutboundWorker } = await import("@/lib/outbound/worker");
    startOutboundWorker().then(
      (worker) => stopOnSignal(worker.stop),
      (error: unknown) => logger().error(errorFields(error), "The outbound notification worker did not start"),
    );
    const { startBackgroundJobs } = await import("./background-jobs");
    startBackgroundJobs().then(
      (jobs) => stopOnSignal(jobs.stop),
      (error: unknown) =>
        logger().error(errorFields(error), "The background jobs (calendar feeds, log partitions) did not start"),
    );
  } else {
    const [{ createComingPartitions }, { db }] = await Promise.all([
      import("@/lib/retention/partitioned-logs"),
      import("@/lib/platform/db/client"),
    ]);
    createComingPartitions(db.pool).catch((error: unknown) =>
      logger().error(errorFields(error), "The partitioned logs' coming days were not created"),
    );
  }
  if (process.env.WEBHOOK_RETENTION_SWEEP === "off") return;
  const { startRetentionSchedule } = await import("@/lib/retention/sweep");
  startRetentionSchedule();
}
