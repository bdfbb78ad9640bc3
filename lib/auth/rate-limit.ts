import "server-only";
import { db } from "@/lib/db/client";

/*
 * Fixed-window counters in PostgreSQL (table rate_limits: key, points, expire in epoch ms, the layout the
 * webhook's limiter uses too), so limits hold across app instances. Taking a point is ONE statement that
 * counts and returns the new count: a parallel burst cannot all read "under the limit" before any of them
 * is counted. Callers take the point before doing the expensive or sensitive work, never after.
 */

export type Hit = { allowed: boolean; retryAfterSeconds: number };

const TAKE_POINT = `
  INSERT INTO rate_limits AS r (key, points, expire) VALUES ($1, 1, $2::bigint + $3::bigint)
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN r.expire IS NULL OR r.expire <= $2::bigint THEN 1 ELSE r.points + 1 END,
    expire = CASE WHEN r.expire IS NULL OR r.expire <= $2::bigint THEN $2::bigint + $3::bigint ELSE r.expire END
  RETURNING points, expire`;

/** Counts one attempt for `key`; allowed while the window's count is at most `limit`. */
export async function takePoint(key: string, limit: number, windowSeconds: number): Promise<Hit> {
  const now = Date.now();
  const { rows } = await db.pool.query<{ points: number; expire: string }>(TAKE_POINT, [key, now, windowSeconds * 1000]);
  const { points, expire } = rows[0];
  if (points <= limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(expire) - now) / 1000)) };
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
