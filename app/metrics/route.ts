import { metricsRoute } from "@/lib/observability/metrics-endpoint";

// The production server answers /metrics on its fast path (lib/server/fast-routes.ts); this file serves
// `next dev` and `next start` with the same handler.
export const dynamic = "force-dynamic";
export const GET = metricsRoute;
