/*
 * Runs once when a Next.js server instance starts (during app.prepare() in server.mjs). Two jobs:
 * - hand the production server its fast routes and request handling from inside this bundle
 *   (lib/server/registry.ts explains why and how);
 * - schedule the webhook's retention sweep inside the server itself (no separate cron to deploy); every
 *   instance schedules it and the sweep is safe to run concurrently.
 * Node.js runtime only: the edge runtime has no pg.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerProductionServer } = await import("./lib/server/registry");
  registerProductionServer();
  if (process.env.WEBHOOK_RETENTION_SWEEP === "off") return;
  const { startRetentionSchedule } = await import("./lib/events-webhook/retention");
  startRetentionSchedule();
}
