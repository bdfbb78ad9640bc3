// The production server behind `npm start`: Next.js for pages, actions and all other routes, with the
// public API and webhook hot paths (lib/server/fast-routes.ts, registered by instrumentation.ts in the
// Next bundle, so they share its modules and database pool) answered directly from node:http.
import http from "node:http";
import next from "next";

const MAX_FAST_BODY_BYTES = 256 * 1024 + 1; // one byte over the webhook's limit is enough to refuse it

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";
const app = next({ dev: false, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

/** Reads at most `limit` bytes; the rest is discarded (the handler refuses oversized bodies). */
function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      if (size >= limit) return;
      chunks.push(chunk.subarray(0, limit - size));
      size += Math.min(chunk.length, limit - size);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function serveFast(route, req, res) {
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) headers.append(req.rawHeaders[index], req.rawHeaders[index + 1]);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req, MAX_FAST_BODY_BYTES);
  const url = `http://${req.headers.host ?? "localhost"}${req.url}`;
  const response = await route(new Request(url, { method: req.method, headers, body }));
  const payload = req.method === "HEAD" ? null : Buffer.from(await response.arrayBuffer());
  // The same security headers next.config.mjs gives every other response.
  const outgoing = { "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin", "x-frame-options": "DENY" };
  response.headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  if (payload) outgoing["content-length"] = String(payload.length);
  res.writeHead(response.status, outgoing);
  res.end(payload);
}

const server = http.createServer((req, res) => {
  const match = globalThis.__fastRoutes?.match;
  const pathname = (req.url ?? "/").split("?", 1)[0];
  const route = match?.(req.method ?? "GET", pathname);
  if (!route) {
    handle(req, res);
    return;
  }
  serveFast(route, req, res).catch(() => {
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    res.end(JSON.stringify({ ok: false, error: { code: "internal_error", message: "Something went wrong on our side.", details: [] } }));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => console.log(`▸ Listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`));

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3_000).unref();
  });
}
