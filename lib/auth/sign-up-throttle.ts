import "server-only";
import { takePoint } from "./rate-limit";

/*
 * Each sign-up costs an argon2 hash and creates rows, so sign-ups are counted per client IP and across
 * the whole product before any of that work, with the same atomic counters as sign-in. The global limit
 * caps what a botnet of many addresses can create; legitimate traffic is far below it.
 */

export const SIGN_UP_LIMITS = {
  ip: { limit: 10, windowSeconds: 60 * 60 },
  global: { limit: 100, windowSeconds: 60 },
} as const;

/**
 * Counts a sign-up attempt; true when the IP and the product are both under their limits. The global
 * point is taken only once the IP's is granted, so one address hammering away spends its own budget and
 * cannot use up everyone's.
 */
export async function takeSignUpAttempt(ip: string): Promise<boolean> {
  const { ip: perIp, global } = SIGN_UP_LIMITS;
  if (!(await takePoint(`signup-ip:${ip}`, perIp.limit, perIp.windowSeconds)).allowed) return false;
  return (await takePoint("signup-global", global.limit, global.windowSeconds)).allowed;
}
