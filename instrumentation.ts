/*
 * Runs once when a Next.js server instance starts. The webhook's retention sweep runs inside the server
 * itself (no separate cron to deploy); every instance schedules it and the sweep is safe to run
 * concurrently. Node.js runtime only: the edge runtime has no pg.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // The production server (lib/cli/serve.mjs) answers the API hot paths with these, from this bundle.
  const { matchFastRoute } = await import("./lib/server/fast-routes");
  (globalThis as { __fastRoutes?: unknown }).__fastRoutes = { match: matchFastRoute };
  if (process.env.WEBHOOK_RETENTION_SWEEP === "off") return;
  const { startRetentionSchedule } = await import("./lib/events-webhook/retention");
  startRetentionSchedule();
}
