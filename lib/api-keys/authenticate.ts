import "server-only";
import type pg from "pg";
import { CLOCK_CTE, fixedWindowCounterCte, type RateState } from "@/lib/platform/http/rate-limit";
import { hashApiKey, isWellFormedApiKey } from "./key-format";
import { isScope, type Scope } from "./scopes";
import type { Env } from "@/lib/platform/http/client-ip";
import { fail, type Failure } from "@/lib/platform/result";

/*
 * The hot path of every public API request: read the bearer key, reject what cannot be a key without
 * touching the database, then one statement that finds the key by its hash, reports revoked/expired by
 * the database clock (one clock for every instance), refreshes last_used_at at most once a minute and
 * counts the request against the key's per-minute rate limit. Nothing is cached, so a revocation or an
 * expiry holds from the very next request on every instance.
 */

export type ApiKeyPrincipal = {
  account: { id: string; name: string };
  key: { id: string; name: string; prefix: string; scopes: Scope[]; expiresAt: Date | null; createdAt: Date };
};

export type AuthFailure = "missing" | "wrong_scheme" | "empty" | "malformed" | "unknown" | "revoked" | "expired";

export type AuthResult = { ok: true; principal: ApiKeyPrincipal; rate: RateState } | Failure<AuthFailure>;

const MESSAGES: Record<AuthFailure, string> = {
  missing: "Send an API key in the Authorization header: Authorization: Bearer <key>.",
  wrong_scheme: "Use the Bearer scheme: Authorization: Bearer <key>.",
  empty: "The Authorization header names the Bearer scheme but carries no API key.",
  malformed: "The API key is malformed. Check that it was copied completely.",
  unknown: "The API key is not valid.",
  revoked: "The API key has been revoked.",
  expired: "The API key has expired.",
};

const refuse = (code: AuthFailure): Failure<AuthFailure> => fail(code, MESSAGES[code]);

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** PUBLIC_API_RATE_LIMIT_PER_MINUTE: requests per key per minute, shared by every instance. */
export function publicApiRateLimit(env: Env = process.env): number {
  const value = Number(env.PUBLIC_API_RATE_LIMIT_PER_MINUTE ?? DEFAULT_RATE_LIMIT_PER_MINUTE);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_RATE_LIMIT_PER_MINUTE;
}

/** Extracts the key from `Authorization: Bearer <key>`; the scheme is case-insensitive (RFC 9110). */
export function readBearerToken(header: string | null): { ok: true; token: string } | Failure<AuthFailure> {
  const value = header?.trim() ?? "";
  if (!value) return refuse("missing");
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(value);
  if (!match || match[1].toLowerCase() !== "bearer") return refuse("wrong_scheme");
  const token = (match[2] ?? "").trim();
  if (!token) return refuse("empty");
  if (!isWellFormedApiKey(token)) return refuse("malformed");
  return { ok: true, token };
}

/*
 * The UPDATE's conditions test the target row itself (k.last_used_at), so when concurrent requests race
 * for the once-a-minute write, the ones that wait re-check against the freshly written value and skip.
 * A data-modifying CTE runs even though the outer SELECT does not read it. Only a usable key is counted
 * (per key id, so all of an account's integrations do not share one budget). The hash is indexed but
 * unique only per account (docs/scaling.md, "Citus"): a hash found twice is answered as unknown.
 */
export const LOOKUP_SQL = `
WITH ${CLOCK_CTE},
found AS (
  SELECT k.id, k.account_id, a.name AS account_name, k.name, k.prefix, k.scopes, k.expires_at, k.created_at,
         k.revoked_at IS NOT NULL AS revoked,
         (k.expires_at IS NOT NULL AND k.expires_at <= now()) AS expired
  FROM (SELECT *, count(*) OVER () AS matches FROM api_keys WHERE key_hash = $1) k
  JOIN accounts a ON a.id = k.account_id
  WHERE k.matches = 1
), touched AS (
  UPDATE api_keys k SET last_used_at = now()
  FROM found f
  WHERE k.account_id = f.account_id AND k.id = f.id AND NOT f.revoked AND NOT f.expired
    AND (k.last_used_at IS NULL OR k.last_used_at <= now() - interval '1 minute')
  RETURNING k.id
),
${fixedWindowCounterCte("'api-key:' || f.id::text", "found f, clock WHERE NOT f.revoked AND NOT f.expired")}
SELECT f.id, f.account_id, f.account_name, f.name, f.prefix, f.scopes, f.expires_at, f.created_at, f.revoked, f.expired,
       rl.points, rl.expire - clock.ms AS reset_ms
FROM found f CROSS JOIN clock LEFT JOIN rl ON true`;

type LookupRow = {
  id: string;
  account_id: string;
  account_name: string;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  created_at: Date;
  revoked: boolean;
  expired: boolean;
  points: number | null;
  /** bigint, so a string. */
  reset_ms: string | null;
};

/** Throws only for database errors (the caller maps unavailability to 503). */
export async function authenticateApiKey(
  pool: pg.Pool,
  authorization: string | null,
  options: { rateLimitPerMinute?: number } = {},
): Promise<AuthResult> {
  const parsed = readBearerToken(authorization);
  if (!parsed.ok) return parsed;
  // A named statement is parsed and planned once per connection instead of on every request.
  const { rows } = await pool.query<LookupRow>({
    name: "api-key-lookup",
    text: LOOKUP_SQL,
    values: [hashApiKey(parsed.token)],
  });
  const row = rows[0];
  if (!row) return refuse("unknown");
  if (row.revoked) return refuse("revoked");
  if (row.expired) return refuse("expired");
  return {
    ok: true,
    rate: {
      limit: options.rateLimitPerMinute ?? publicApiRateLimit(),
      points: row.points ?? 0,
      resetMs: Number(row.reset_ms ?? 0),
    },
    principal: {
      account: { id: row.account_id, name: row.account_name },
      key: {
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        scopes: row.scopes.filter(isScope),
        expiresAt: row.expires_at,
        createdAt: row.created_at,
      },
    },
  };
}
