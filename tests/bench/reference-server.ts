import http from "node:http";
import { PLANS } from "@/lib/accounts/plans";
import { MAX_BODY_BYTES } from "@/lib/events-webhook/body";
import { bodyExcerpt } from "@/lib/events-webhook/delivery-record";
import { FIND_SOURCE_SQL, UPSERT_SQL } from "@/lib/events-webhook/ingest-sql";
import { parsePayload } from "@/lib/events-webhook/payload";
import { decryptSecret } from "@/lib/platform/crypto/secrets";
import { isFreshTimestamp, verifySignature } from "@/lib/events-webhook/signature";
import { eventFields } from "@/lib/events/sql";
import { benchPool, sendJson, serveBench } from "./reference-http";

/*
 * The benchmark's yardstick: the app webhook's work on bare node:http + pg, without Next.js. The same
 * source cache confirmed by the statement, timestamp window, constant-time HMAC over the raw bytes,
 * strict JSON + schema validation, and the same single SQL statement. Upserts only; refusals are
 * answered without logging. Run: node --conditions=react-server --import tsx tests/bench/reference-server.ts <port>
 */

const pool = benchPool();
const planLimits = JSON.stringify(
  Object.fromEntries(Object.entries(PLANS).map(([plan, limits]) => [plan, limits.maxEvents])),
);

type Source = { id: string; account_id: string; active: boolean; secret_ciphertext: string; secret: string };
const sources = new Map<string, Source>();

async function loadSource(publicId: string): Promise<Source | null> {
  const row = (await pool.query({ name: "find-source", text: FIND_SOURCE_SQL, values: [publicId] })).rows[0];
  if (!row) return null;
  const source = { ...row, secret: decryptSecret(row.secret_ciphertext) };
  sources.set(publicId, source);
  return source;
}

async function readBody(request: http.IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  const started = performance.now();
  const publicId = (request.url ?? "").split("/").pop() ?? "";
  const body = await readBody(request);
  for (let attempt = 0; attempt < 2; attempt++) {
    const source = (attempt === 0 && sources.get(publicId)) || (await loadSource(publicId));
    if (!source) return sendJson(response, 404, { ok: false, error: { code: "source_not_found" } });
    if (!source.active) return sendJson(response, 403, { ok: false, error: { code: "source_inactive" } });
    if (!body) return sendJson(response, 413, { ok: false, error: { code: "payload_too_large" } });
    const timestamp = (request.headers["x-service-timestamp"] as string | undefined) ?? null;
    if (!isFreshTimestamp(timestamp, Date.now()))
      return sendJson(response, 400, { ok: false, error: { code: "invalid_timestamp" } });
    const signature = (request.headers["x-service-signature"] as string | undefined) ?? null;
    if (!verifySignature(source.secret, timestamp, body, signature))
      return sendJson(response, 401, { ok: false, error: { code: "invalid_signature" } });
    const payload = parsePayload(body);
    if (!payload.ok || payload.action !== "upsert")
      return sendJson(response, 400, { ok: false, error: { code: "invalid_payload" } });
    const headers = {
      content_type: request.headers["content-type"] ?? null,
      user_agent: request.headers["user-agent"] ?? null,
      content_length: request.headers["content-length"] ?? null,
      timestamp,
      signature_present: true,
      signature_valid: true,
    };
    const result = await pool.query({
      name: "upsert",
      text: UPSERT_SQL.text,
      values: UPSERT_SQL.values({
        ...eventFields(payload.event),
        account: source.account_id,
        source: source.id,
        signature: signature!.slice(7),
        signed_at: new Date(Number(timestamp) * 1000).toISOString(),
        secret: source.secret_ciphertext,
        planLimits,
        action: "upsert",
        elapsed: Math.round(performance.now() - started),
        body: bodyExcerpt(body),
        bodyBytes: body.length,
        headers: JSON.stringify(headers),
        // The benchmark's events have no series: the statement never holds for an occurrence check.
        seriesChecked: false,
      }),
    });
    const row = result.rows[0];
    if (row.code === "stale") continue;
    if (row.code === "ok")
      return sendJson(response, 200, {
        ok: true,
        action: "upsert",
        event: { id: row.id, status: row.status, created: row.created },
      });
    if (row.code === "duplicate") return sendJson(response, 200, { ok: true, duplicate: true });
    return sendJson(response, row.code === "rate_limited" ? 429 : 403, { ok: false, error: { code: row.code } });
  }
  sendJson(response, 503, { ok: false, error: { code: "unavailable" } });
}

serveBench(handle, "reference server ready", { ok: false, error: { code: "unavailable" } });
