import "server-only";
import { db } from "@/lib/platform/db/client";
import { CLOCK_CTE, fixedWindowCounterCte } from "@/lib/platform/http/rate-limit";

/*
 * Fixed-window counters in PostgreSQL (lib/platform/http/rate-limit.ts, the counter the webhook and the public API
 * use, on the database clock), so limits hold across app instances. Taking a point is ONE statement that
 * counts and returns the new count: a parallel burst cannot all read "under the limit" before any of them
 * is counted. Callers take the point before doing the expensive or sensitive work, never after.
 */

export type Hit = { allowed: boolean; retryAfterSeconds: number };

const TAKE_POINT = `WITH ${CLOCK_CTE}, ${fixedWindowCounterCte("$1::text", "clock", "$2::bigint")}
  SELECT rl.points, rl.expire - clock.ms AS reset_ms FROM rl, clock`;

/** Counts one attempt for `key`; allowed while the window's count is at most `limit`. */
export async function takePoint(key: string, limit: number, windowSeconds: number): Promise<Hit> {
  const { rows } = await db.pool.query<{ points: number; reset_ms: string }>(TAKE_POINT, [key, windowSeconds * 1000]);
  const { points, reset_ms: resetMs } = rows[0];
  if (points <= limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(resetMs) / 1000)) };
}

/** Takes a point from every key at once; refused when any of them is over its limit. */
export async function takePoints(hits: { key: string; limit: number; windowSeconds: number }[]): Promise<Hit> {
  const results = await Promise.all(hits.map((hit) => takePoint(hit.key, hit.limit, hit.windowSeconds)));
  const refused = results.filter((result) => !result.allowed);
  if (!refused.length) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(...refused.map((result) => result.retryAfterSeconds)) };
}

/** Gives a point back (an attempt that turned out legitimate should not count against a shared IP). */
export async function returnPoint(key: string): Promise<void> {
  await db.pool.query("UPDATE rate_limits SET points = GREATEST(points - 1, 0) WHERE key = $1", [key]);
}

export async function clearPoints(key: string): Promise<void> {
  await db.pool.query("DELETE FROM rate_limits WHERE key = $1", [key]);
}
