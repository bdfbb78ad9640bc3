import http from "node:http";
import { authenticateApiKey } from "@/lib/api-keys/authenticate";
import { connectionOf } from "@/lib/public-api/zapier-me";
import { benchPool, sendJson, serveBench } from "./reference-http";

/*
 * The auth benchmark's yardstick: GET /api/public/zapier/me on bare node:http + pg, without Next.js.
 * It runs the app's own authenticateApiKey (header parsing, checksum, SHA-256, the one lookup statement
 * with its last_used_at write) and answers the same JSON, so the difference is the framework's cost.
 * Run with: node --conditions=react-server --import tsx tests/bench/auth-reference-server.ts <port>
 */

const pool = benchPool();

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  if (request.url !== "/api/public/zapier/me")
    return sendJson(response, 404, { ok: false, error: { code: "not_found" } });
  const result = await authenticateApiKey(pool, request.headers.authorization ?? null);
  if (!result.ok) return sendJson(response, 401, { ok: false, error: { code: "invalid_token" } });
  sendJson(response, 200, connectionOf(result.principal));
}

serveBench(handle, "reference server ready", { ok: false, error: { code: "unavailable" } });
