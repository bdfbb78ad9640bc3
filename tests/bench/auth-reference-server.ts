import http from "node:http";
import pg from "pg";
import { authenticateApiKey } from "@/lib/api-keys/authenticate";

/*
 * The auth benchmark's yardstick: GET /api/public/zapier/me on bare node:http + pg, without Next.js.
 * It runs the app's own authenticateApiKey (header parsing, checksum, SHA-256, the one lookup statement
 * with its last_used_at write) and answers the same JSON, so the difference is the framework's cost.
 * Run with: node --conditions=react-server --import tsx tests/bench/auth-reference-server.ts <port>
 */

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
});
pool.on("error", () => {});

function reply(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  if (request.url !== "/api/public/zapier/me") return reply(response, 404, { ok: false, error: { code: "not_found" } });
  const result = await authenticateApiKey(pool, request.headers.authorization ?? null);
  if (!result.ok) return reply(response, 401, { ok: false, error: { code: "invalid_token" } });
  const { account, key } = result.principal;
  reply(response, 200, {
    account: { id: account.id, name: account.name },
    key: {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: key.scopes,
      expires_at: key.expiresAt?.toISOString() ?? null,
      created_at: key.createdAt.toISOString(),
    },
  });
}

const server = http.createServer((request, response) => {
  handle(request, response).catch(() => reply(response, 503, { ok: false, error: { code: "unavailable" } }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), "127.0.0.1", () => console.log("reference server ready"));
