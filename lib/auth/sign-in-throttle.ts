import "server-only";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { db } from "@/lib/db/client";

/*
 * Failed sign-ins are counted per email and per IP in PostgreSQL (table rate_limits), so the limits
 * hold across app instances. A success clears the email's counter.
 */

const WINDOW_SECONDS = 15 * 60;
const limits = { email: 5, ip: 30 } as const;

type Limiters = { email: RateLimiterPostgres; ip: RateLimiterPostgres };
const globalForLimiters = globalThis as unknown as { __signInLimiters?: Limiters };

function limiters(): Limiters {
  const make = (kind: keyof typeof limits) =>
    new RateLimiterPostgres({
      storeClient: db.pool,
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: `signin-${kind}`,
      points: limits[kind],
      duration: WINDOW_SECONDS,
    });
  globalForLimiters.__signInLimiters ??= { email: make("email"), ip: make("ip") };
  return globalForLimiters.__signInLimiters;
}

/** Seconds until another attempt is allowed, or 0 when the email and IP may try now. */
export async function signInRetryAfter(email: string, ip: string): Promise<number> {
  const { email: byEmail, ip: byIp } = limiters();
  const [emailState, ipState] = await Promise.all([byEmail.get(email), byIp.get(ip)]);
  const blocked = [
    [emailState, limits.email],
    [ipState, limits.ip],
  ] as const;
  let wait = 0;
  for (const [state, limit] of blocked) {
    if (state && state.consumedPoints >= limit) wait = Math.max(wait, Math.ceil(state.msBeforeNext / 1000));
  }
  return wait;
}

export async function recordFailedSignIn(email: string, ip: string): Promise<void> {
  const { email: byEmail, ip: byIp } = limiters();
  await Promise.all(
    [byEmail.consume(email), byIp.consume(ip)].map((attempt) =>
      attempt.catch((rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      }),
    ),
  );
}

export async function clearFailedSignIns(email: string): Promise<void> {
  await limiters().email.delete(email);
}
