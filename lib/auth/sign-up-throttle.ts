import "server-only";
import { takePoints } from "./rate-limit";

/*
 * Each sign-up costs an argon2 hash and creates rows, so sign-ups are counted per client IP and across
 * the whole product before any of that work, with the same atomic counters as sign-in. The global limit
 * caps what a botnet of many addresses can create; legitimate traffic is far below it.
 */

export const SIGN_UP_LIMITS = {
  ip: { limit: 10, windowSeconds: 60 * 60 },
  global: { limit: 100, windowSeconds: 60 },
} as const;

/** Counts a sign-up attempt; true when the IP and the product are both under their limits. */
export async function takeSignUpAttempt(ip: string): Promise<boolean> {
  const hit = await takePoints([
    { key: `signup-ip:${ip}`, ...SIGN_UP_LIMITS.ip },
    { key: "signup-global", ...SIGN_UP_LIMITS.global },
  ]);
  return hit.allowed;
}
