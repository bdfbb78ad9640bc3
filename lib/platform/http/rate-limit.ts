import { errorResponse } from "./api-error";

/*
 * Fixed one-minute windows counted in the rate_limits table, on the database clock, so every instance
 * shares one count (rate-limiter-flexible's layout and arithmetic, as the webhook's per-source limit in
 * lib/events-webhook/ingest-sql.ts). The counter is a CTE meant to sit inside the statement that does the
 * request's work, so counting costs no extra round trip and two racing requests cannot both take the
 * last point: the upsert is atomic on the row.
 */

export const RATE_WINDOW_MS = 60_000;

/**
 * `rl AS (…)` returning (points, expire) after this request is counted. `clock` must be a CTE with the
 * statement time in ms (`ms`); `key` a SQL text expression; `from` the FROM clause that yields one row
 * when the request is to be counted (and none when not); `windowMs` a SQL bigint expression; `name` the
 * CTE's, when one statement takes more than one point.
 */
export function fixedWindowCounterCte(
  key: string,
  from: string,
  windowMs: string = String(RATE_WINDOW_MS),
  name = "rl",
): string {
  return `${name} AS (
    INSERT INTO rate_limits AS r (key, points, expire)
    SELECT ${key}, 1, clock.ms + ${windowMs} FROM ${from}
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN COALESCE(r.expire, 0) <= EXCLUDED.expire - ${windowMs} THEN 1 ELSE r.points + 1 END,
      expire = CASE WHEN COALESCE(r.expire, 0) <= EXCLUDED.expire - ${windowMs} THEN EXCLUDED.expire ELSE r.expire END
    RETURNING points, expire)`;
}

export const CLOCK_CTE = "clock AS (SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint AS ms)";

export type RateState = { limit: number; points: number; resetMs: number };

/** IETF draft RateLimit headers: the limit, what is left of it, and seconds until the window resets. */
export function rateLimitHeaders(rate: RateState): Record<string, string> {
  return {
    "RateLimit-Limit": String(rate.limit),
    "RateLimit-Remaining": String(Math.max(0, rate.limit - rate.points)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(rate.resetMs / 1000))),
  };
}

export function isOverLimit(rate: RateState): boolean {
  return rate.points > rate.limit;
}

export function rateLimitedResponse(rate: RateState, what: string): Response {
  const retryAfter = Math.max(1, Math.ceil(rate.resetMs / 1000));
  return errorResponse(
    429,
    "rate_limited",
    `Too many requests for ${what}. Retry after ${retryAfter} seconds, with exponential backoff.`,
    {
      headers: { ...rateLimitHeaders(rate), "Retry-After": String(retryAfter) },
    },
  );
}
