/*
 * When a failed delivery is tried again (docs/outbound-webhooks.md, "Retries"): after 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h, each ±20% so receivers that failed together are not hit together again;
 * 8 attempts in all, about 28 hours. A 429 or 503 with Retry-After waits as long as the receiver asks
 * (up to the longest step).
 */

export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.2;
export const MAX_RETRY_AFTER_MS = 10 * 3_600_000;
/** Continuous failure this long disables a subscription. */
export const FAILING_DISABLE_MS = 5 * 24 * 3_600_000;

/** Delay before attempt `attempt + 1` after attempt `attempt` (1-based) failed; null when none is left. */
export function retryDelay(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as seconds or an HTTP date, in ms from `now`, capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 1_000), MAX_RETRY_AFTER_MS);
}

/**
 * A retry delay as applied: OUTBOUND_RETRY_SCALE (a factor between 0 and 1, for tests and benchmarks only,
 * docs/outbound-webhooks.md, "Tuning") shortens every pause, Retry-After included, so that a soak sees a
 * failing receiver's circuit close within minutes; unset in production.
 */
export function scaledDelay(ms: number, env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env.OUTBOUND_RETRY_SCALE);
  return scale > 0 && scale < 1 ? Math.max(1, Math.round(ms * scale)) : ms;
}
