import "server-only";
import crypto from "node:crypto";
import type pg from "pg";
import { db } from "@/lib/platform/db/client";
import { openSealedText, sealText } from "@/lib/platform/crypto/secrets";
import { errorResponse } from "@/lib/platform/http/api-error";
import { parseJsonObject, readRawBody } from "./body";
import { IDEMPOTENCY_RETENTION_HOURS } from "./idempotency-retention";
import { invalidRequestResponse } from "./validation";
import { logger } from "@/lib/platform/observability/log";

/*
 * Idempotency-Key on every public POST (docs/leads-api.md, idempotency): the first answer for (API key,
 * Idempotency-Key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`.
 *
 * The key is claimed first, by idempotency_claim() (migration webhook_logs_daily_partitions) in a statement of
 * its own, so of any number of concurrent requests with one key exactly one runs the handler; the others wait
 * for its stored answer (or get 409 idempotency_request_in_progress). The records are partitioned by UTC day
 * and their primary key includes the claim's time, so the key alone does not stop a second claim: the
 * function serialises the claimers of one key with a transaction-scoped advisory lock and looks for a claim
 * of the last 24 hours across the day partitions, so a key used yesterday at 10:00 replays today at 09:00
 * and two claims either side of midnight still run the handler once. Older rows are ignored until their
 * day's partition is dropped (lib/retention/partitioned-logs.ts). The claim answers with the record that
 * holds the key, so a replay costs one round trip.
 * The row remembers a fingerprint of the request (method, path, raw body): the same key with another request
 * is 409 idempotency_key_reused. A 5xx answer or a thrown error is not stored: the claim is released so that
 * a retry runs again.
 *
 * Answers that carry a secret (a new subscription's signing secret) are stored sealed: AES-256-GCM under
 * APP_ENCRYPTION_KEY, bound to the API key and the Idempotency-Key, as the secrets themselves are
 * (docs/outbound-webhooks.md, "Secrets"). A replay opens them and repeats the first answer byte for byte,
 * unless the route's `replayCheck` answers otherwise (the subscribe route: its subscription was deleted or
 * its secret rotated since). A sealed answer that no longer opens (APP_ENCRYPTION_KEY changed, a damaged
 * row) is dropped and the request handled as new: otherwise every retry with that key would fail for 24 h.
 */

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const HEADER = "idempotency-key";
/** Headers of the first answer that a replay repeats (Cache-Control is set on every answer anyway). */
const STORED_HEADERS = ["content-type", "location"];
/** A claim still unanswered after this long belongs to a request that died (the statement timeout is far lower). */
const ABANDONED_AFTER_SECONDS = 60;

export type IdempotencyOptions = {
  pool?: pg.Pool;
  waitMs?: number;
  /** The route's answers carry a secret: store them encrypted. */
  seal?: boolean;
  /**
   * Looks at a stored answer before it is replayed: null replays it as stored, a Response is answered
   * instead (marked as a replay). For answers whose content may have gone stale, e.g. a secret.
   */
  replayCheck?: (answer: StoredAnswer) => Promise<Response | null>;
};

/** A stored first answer, as a replay would repeat it (opened if it was sealed). */
export type StoredAnswer = { status: number; body: string; headers: Record<string, string> };

type StoredRow = {
  claimed: boolean;
  created_at: Date;
  fingerprint: string;
  status: number | null;
  body: string | null;
  sealed: boolean;
  headers: Record<string, string> | null;
};

/** Whose key it is: the authenticated API key and its account (the records are keyed by both). */
export type IdempotencyOwner = { account: { id: string }; key: { id: string } };
type Claim = { account: string; apiKey: string; key: string; createdAt: Date };

const CLAIM_SQL = `SELECT claimed, created_at, fingerprint, status, body, sealed, headers
  FROM idempotency_claim($1::uuid, $2::uuid, $3::text, $4::text,
    interval '${IDEMPOTENCY_RETENTION_HOURS} hours', interval '${ABANDONED_AFTER_SECONDS} seconds')`;
// The rest name the claim by its whole primary key, so each reads one day's partition.
const CLAIM_KEY = "account_id = $1::uuid AND api_key_id = $2::uuid AND key = $3::text AND created_at = $4::timestamptz";
const STORE_SQL = `UPDATE idempotency_keys SET status = $5, body = $6, headers = $7, sealed = $8, completed_at = now()
  WHERE ${CLAIM_KEY}`;
const RELEASE_SQL = `DELETE FROM idempotency_keys WHERE ${CLAIM_KEY} AND status IS NULL`;
// Only the very row that failed to open: a concurrent retry may already have stored a new answer.
const DROP_UNOPENABLE_SQL = `DELETE FROM idempotency_keys WHERE ${CLAIM_KEY} AND sealed AND body = $5`;
const claimKey = (claim: Claim) => [claim.account, claim.apiKey, claim.key, claim.createdAt];

export function requestFingerprint(request: Request, body: Uint8Array): string {
  return crypto
    .createHash("sha256")
    .update(`${request.method.toUpperCase()} ${new URL(request.url).pathname}\n`)
    .update(body)
    .digest("hex");
}

/** Runs `handle` at most once per (API key, Idempotency-Key); without the header it simply runs it. */
export async function withIdempotency(
  request: Request,
  owner: IdempotencyOwner,
  body: Uint8Array,
  handle: () => Promise<Response>,
  options: IdempotencyOptions = {},
): Promise<Response> {
  const key = request.headers.get(HEADER);
  if (key === null) return handle();
  const problem = checkKey(key);
  if (problem)
    return invalidRequestResponse(
      [{ field: "Idempotency-Key", message: problem }],
      "The Idempotency-Key header is not valid.",
    );

  const pool = options.pool ?? db.pool;
  const fingerprint = requestFingerprint(request, body);
  const deadline = Date.now() + (options.waitMs ?? 5_000);
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0 && Date.now() >= deadline) return inProgressResponse();
    const { rows } = await pool.query<StoredRow>(CLAIM_SQL, [owner.account.id, owner.key.id, key, fingerprint]);
    const stored = rows[0];
    const claim = { account: owner.account.id, apiKey: owner.key.id, key, createdAt: stored.created_at };
    if (stored.claimed) return runAndStore(pool, claim, handle, options.seal === true);
    if (stored.fingerprint !== fingerprint) {
      return errorResponse(
        409,
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different request.",
        {
          details: [{ field: "Idempotency-Key", message: "Use a new key for each distinct request." }],
        },
      );
    }
    if (stored.status !== null) {
      const answer = openAnswer(stored, claim);
      if (answer) return replay(answer, options.replayCheck);
      await pool.query(DROP_UNOPENABLE_SQL, [...claimKey(claim), stored.body]);
      continue; // Handled as a new request: claim the key again.
    }
    await sleep(Math.min(25 * 2 ** Math.min(attempt, 3), 200));
  }
}

/** Reads the body once (capped), then parses the JSON object and runs `write` under the request's Idempotency-Key. */
export async function idempotentJsonWrite(
  request: Request,
  owner: IdempotencyOwner,
  write: (body: object) => Promise<Response>,
): Promise<Response> {
  const raw = await readRawBody(request);
  if (!raw.ok) return raw.response;
  return withIdempotency(request, owner, raw.bytes, async () => {
    const json = parseJsonObject(raw.bytes);
    return json.ok ? write(json.value as object) : json.response;
  });
}

function inProgressResponse(): Response {
  return errorResponse(
    409,
    "idempotency_request_in_progress",
    "A request with this Idempotency-Key is still being processed. Retry shortly.",
    {
      headers: { "Retry-After": "1" },
    },
  );
}

function checkKey(key: string): string | null {
  if (key.length === 0) return "Must not be empty.";
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return `Use at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`;
  if (!/^[\x20-\x7e]+$/.test(key)) return "Use printable ASCII characters only.";
  return null;
}

/** The sealed answer opens only for the (API key, Idempotency-Key) it was stored under. */
const sealPurpose = (claim: Claim) => `idempotent-answer:v1:${claim.apiKey}:${claim.key}`;

async function runAndStore(
  pool: pg.Pool,
  claim: Claim,
  handle: () => Promise<Response>,
  seal: boolean,
): Promise<Response> {
  let response: Response;
  try {
    response = await handle();
  } catch (error) {
    await pool.query(RELEASE_SQL, claimKey(claim)).catch(() => {});
    throw error;
  }
  if (response.status >= 500) {
    await pool.query(RELEASE_SQL, claimKey(claim)).catch(() => {});
    return response;
  }
  const text = await response.text();
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = seal ? sealText(text, sealPurpose(claim)) : text;
  await pool.query(STORE_SQL, [...claimKey(claim), response.status, body, JSON.stringify(headers), seal]);
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The stored answer, opened if sealed; null (logged, without the content) when a sealed one does not open. */
function openAnswer(stored: StoredRow, claim: Claim): StoredAnswer | null {
  const answer = { status: stored.status ?? 200, body: stored.body ?? "", headers: stored.headers ?? {} };
  if (!stored.sealed || stored.body === null) return answer;
  try {
    return { ...answer, body: openSealedText(stored.body, sealPurpose(claim)) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unknown error";
    logger().error(
      `A stored idempotent answer (API key ${claim.apiKey}) did not open (${reason}); handling the request as new.`,
    );
    return null;
  }
}

async function replay(answer: StoredAnswer, replayCheck: IdempotencyOptions["replayCheck"]): Promise<Response> {
  const instead = replayCheck ? await replayCheck(answer) : null;
  const response = instead ?? new Response(answer.body, { status: answer.status, headers: answer.headers });
  response.headers.set("Idempotent-Replayed", "true");
  response.headers.set("Cache-Control", "no-store");
  return response;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
