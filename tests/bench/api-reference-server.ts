import http from "node:http";
import { authenticateApiKey } from "@/lib/api-keys/authenticate";
import { db } from "@/lib/platform/db/client";
import { isOverLimit, rateLimitHeaders } from "@/lib/platform/http/rate-limit";
import { createLead } from "@/lib/leads/create";
import { serializeLead } from "@/lib/leads/model";
import { listLeads, listOptionsOf } from "@/lib/leads/read";
import { createLeadSchema, listLeadsQuerySchema } from "@/lib/leads/schemas";
import { MAX_PUBLIC_BODY_BYTES, parseJsonObject } from "@/lib/api/body";
import { queryObject } from "@/lib/api/list";
import { parseWith } from "@/lib/api/validation";
import { sendJson, serveBench } from "./reference-http";

/*
 * The leads API benchmark's yardstick: GET and POST /api/public/leads on bare node:http + pg, without
 * Next.js and without Web Request/Response objects. Per request it runs the app's own work: the key
 * lookup with its rate count (authenticateApiKey), the limit and scope checks, the route's zod schemas,
 * and listLeads / createLead with their SQL on the app's pool, then the same JSON and RateLimit headers.
 * The difference to the production server is the framework's cost. Without an Idempotency-Key header
 * the app skips idempotency entirely, and the benchmark sends none.
 * Run with: node --conditions=react-server --import tsx tests/bench/api-reference-server.ts <port>
 */

const PATH = "/api/public/leads";

const error = (code: string, details: unknown[] = []) => ({ ok: false, error: { code, message: code, details } });

async function readBody(request: http.IncomingMessage): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PUBLIC_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function list(response: http.ServerResponse, accountId: string, url: URL, headers: Record<string, string>) {
  const query = parseWith(listLeadsQuerySchema, queryObject(url));
  if (!query.ok) return sendJson(response, 400, error("invalid_request", query.details), headers);
  const page = await listLeads(accountId, listOptionsOf(query.value));
  sendJson(
    response,
    200,
    { data: page.data.map(serializeLead), has_more: page.hasMore, next_cursor: page.nextCursor },
    headers,
  );
}

async function create(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  accountId: string,
  apiKeyId: string,
  headers: Record<string, string>,
) {
  const bytes = await readBody(request);
  if (!bytes) return sendJson(response, 413, error("payload_too_large"), headers);
  const json = parseJsonObject(bytes);
  if (!json.ok) return sendJson(response, 400, error("invalid_json"), headers);
  const input = parseWith(createLeadSchema, json.value);
  if (!input.ok) return sendJson(response, 400, error("invalid_request", input.details), headers);
  const result = await createLead({ accountId, actor: { type: "api_key", apiKeyId } }, input.value);
  if (result.ok)
    return sendJson(response, 201, serializeLead(result.lead), { ...headers, Location: `${PATH}/${result.lead.id}` });
  sendJson(response, result.code === "exists" ? 409 : 400, error(result.code), headers);
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? "/", "http://reference");
  if (url.pathname !== PATH || (request.method !== "GET" && request.method !== "POST"))
    return sendJson(response, 404, error("not_found"));
  const auth = await authenticateApiKey(db.pool, request.headers.authorization ?? null);
  if (!auth.ok) return sendJson(response, 401, error("invalid_token"));
  const { account, key } = auth.principal;
  const { rate } = auth;
  if (isOverLimit(rate)) return sendJson(response, 429, error("rate_limited"), rateLimitHeaders(rate));
  const scope = request.method === "GET" ? "read:leads" : "write:leads";
  if (!key.scopes.includes(scope)) return sendJson(response, 403, error("insufficient_scope"));
  const headers = rateLimitHeaders(rate);
  if (request.method === "GET") return list(response, account.id, url, headers);
  return create(request, response, account.id, key.id, headers);
}

serveBench(handle, "reference server ready", error("unavailable"));
