/*
 * Runs once when a Next.js server instance starts (during app.prepare() in server.mjs): what it starts is
 * lib/server/instance.ts. Node.js runtime only (the edge runtime has no pg); the import sits inside the
 * runtime check so that the edge build leaves it out.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startInstance } = await import("./lib/server/instance");
    await startInstance();
  }
}
