import "server-only";
import http from "node:http";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { metricsRoute } from "./metrics-endpoint";

/*
 * /metrics for a process without a web server (`npm run worker`): with METRICS_TOKEN and METRICS_PORT
 * set, the worker answers GET /metrics on that port, with the same token and handler as the web's.
 * Its attempts and delivery lag are counted in the worker's own process, so Prometheus scrapes each
 * worker too (docs/operations.md, "Where each metric is observed").
 */

export function metricsPort(env: NodeJS.ProcessEnv = process.env): number | null {
  if (!env.METRICS_TOKEN || !env.METRICS_PORT) return null;
  const port = Number(env.METRICS_PORT);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : null;
}

export async function startMetricsServer(port: number, host = process.env.METRICS_HOST ?? "0.0.0.0") {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    const method = req.method ?? "GET";
    const answer =
      path === "/metrics" && (method === "GET" || method === "HEAD")
        ? metricsRoute(
            new Request(`http://localhost${path}`, {
              method,
              headers: { authorization: req.headers.authorization ?? "" },
            }),
          )
        : Promise.resolve(new Response(null, { status: 404 }));
    answer
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        logger().error(errorFields(error), "metrics server: answering failed");
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
