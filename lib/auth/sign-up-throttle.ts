import "server-only";
import { rateLimitKeyForIp } from "@/lib/platform/http/client-ip";
import { takePoint } from "./rate-limit";

/*
 * Each sign-up costs an argon2 hash and creates rows, so sign-ups are counted per client IP and across
 * the whole product before any of that work, with the same atomic counters as sign-in. The global limit
 * caps what a botnet of many addresses can create; legitimate traffic is far below it. An IPv6 client
 * counts as its /64 (rateLimitKeyForIp), which it can fill with addresses of its own.
 */

function limitFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Read per call so an operator (or the end-to-end server, which signs up many users from 127.0.0.1) can tune them. */
export function signUpLimits() {
  return {
    ip: { limit: limitFromEnv("SIGN_UP_LIMIT_PER_IP_PER_HOUR", 10), windowSeconds: 60 * 60 },
    global: { limit: limitFromEnv("SIGN_UP_LIMIT_PER_MINUTE", 100), windowSeconds: 60 },
  };
}

/**
 * Counts a sign-up attempt; true when the IP and the product are both under their limits. The global
 * point is taken only once the IP's is granted, so one address hammering away spends its own budget and
 * cannot use up everyone's.
 */
export async function takeSignUpAttempt(ip: string): Promise<boolean> {
  const { ip: perIp, global } = signUpLimits();
  if (!(await takePoint(`signup-ip:${rateLimitKeyForIp(ip)}`, perIp.limit, perIp.windowSeconds)).allowed) return false;
  return (await takePoint("signup-global", global.limit, global.windowSeconds)).allowed;
}
