import type { RequestListener, Server } from "node:http";
import { FAST_ROUTES } from "./fast-routes";
import { preflightProblems } from "./preflight";
import { configureServer, createRequestListener, type NextHandler } from "./request-listener";
import type { Env } from "@/lib/platform/http/client-ip";

/*
 * How server.mjs (plain JavaScript, outside the Next.js bundle) gets the fast routes, which must come
 * from inside the bundle to share its modules and database pool: instrumentation.ts (instance.ts) calls
 * registerProductionServer() when Next.js prepares, under a global symbol, with a version number. The
 * server checks both after app.prepare() and refuses to start without them, naming what is missing,
 * instead of quietly serving everything through Next.js. Bump the version when this shape changes.
 */

export const PRODUCTION_SERVER_KEY = Symbol.for("integration-access.production-server");
export const PRODUCTION_SERVER_VERSION = 1;

export type ProductionServerRegistry = {
  version: typeof PRODUCTION_SERVER_VERSION;
  /** e.g. "POST /api/v1/events/webhook/:sourceId", for the start-up log. */
  fastRoutes: readonly string[];
  preflight: (env: Env) => string[];
  createRequestListener: (nextHandler: NextHandler) => RequestListener;
  configureServer: (server: Server) => void;
};

export function productionServerRegistry(): ProductionServerRegistry {
  return {
    version: PRODUCTION_SERVER_VERSION,
    fastRoutes: FAST_ROUTES.map((route) => route.label),
    preflight: preflightProblems,
    createRequestListener: (nextHandler) => createRequestListener({ nextHandler }),
    configureServer: (server) => configureServer(server),
  };
}

export function registerProductionServer(target: object = globalThis): void {
  Object.defineProperty(target, PRODUCTION_SERVER_KEY, { value: productionServerRegistry(), configurable: true });
}

/** The registry, or why it cannot be used (the same check server.mjs makes). */
export function readProductionServer(target: object = globalThis): ProductionServerRegistry | string {
  const registry = (target as Record<symbol, unknown>)[PRODUCTION_SERVER_KEY] as
    Partial<ProductionServerRegistry> | undefined;
  if (!registry) return "the fast routes were not registered (instrumentation.ts did not run or failed)";
  if (registry.version !== PRODUCTION_SERVER_VERSION)
    return `the fast-route registry has version ${registry.version}, this server expects ${PRODUCTION_SERVER_VERSION}`;
  if (!registry.fastRoutes?.length) return "the fast-route registry lists no routes";
  return registry as ProductionServerRegistry;
}
