import http from "node:http";
import pg from "pg";

/*
 * What the benchmarks' bare node:http servers share (the yardsticks beside the production server): the
 * pool they query through, the JSON answer with the headers the app sends, and the listening server
 * whose failures answer 503 like the app's. Each is started as `node … <file>.ts <port>`.
 */

export function benchPool(): pg.Pool {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  });
  pool.on("error", () => {});
  return pool;
}

export function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(text)),
    "Cache-Control": "no-store",
    ...headers,
  });
  response.end(text);
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;

/** Listens on the port given as the first argument; prints `ready` once it does. */
export function serveBench(handle: Handler, ready: string, unavailable: unknown): http.Server {
  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => sendJson(response, 503, unavailable));
  });
  server.keepAliveTimeout = 65_000;
  // Exits on SIGTERM instead of being killed by it, so that --cpu-prof (BENCH_CPU_PROF) writes its profile.
  process.once("SIGTERM", () => process.exit(0));
  server.listen(Number(process.argv[2]), "127.0.0.1", () => console.log(ready));
  return server;
}
