import "server-only";
import { rateLimitKeyForIp } from "@/lib/platform/http/client-ip";
import { clearPoints, returnPoint, takePoints } from "./rate-limit";

/*
 * Sign-in attempts are counted per email and per client IP BEFORE the password is checked, each with one
 * atomic statement, so a parallel burst gets at most `limits.email` password checks per window. A success
 * clears the email's counter and gives the IP its point back, so people signing in from one office
 * address do not use up each other's attempts. An IPv6 client counts as its /64 (rateLimitKeyForIp).
 */

const WINDOW_SECONDS = 15 * 60;
const limits = { email: 5, ip: 30 } as const;

const emailKey = (email: string) => `signin-email:${email}`;
const ipKey = (ip: string) => `signin-ip:${rateLimitKeyForIp(ip)}`;

/** Counts an attempt; returns the seconds to wait when the email or the IP is over its limit, else 0. */
export async function takeSignInAttempt(email: string, ip: string): Promise<number> {
  const hit = await takePoints([
    { key: emailKey(email), limit: limits.email, windowSeconds: WINDOW_SECONDS },
    { key: ipKey(ip), limit: limits.ip, windowSeconds: WINDOW_SECONDS },
  ]);
  return hit.retryAfterSeconds;
}

export async function signInSucceeded(email: string, ip: string): Promise<void> {
  await Promise.all([clearPoints(emailKey(email)), returnPoint(ipKey(ip))]);
}
