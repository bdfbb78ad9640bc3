import "server-only";
import { db } from "@/lib/platform/db/client";
import { fail, type Failure } from "@/lib/platform/result";
import { dummyPasswordHash, verifyPassword } from "./password";
import { signInSucceeded, takeSignInAttempt } from "./sign-in-throttle";

export type SignedInUser = { id: string; name: string; email: string; sessionVersion: number };

// One message for an unknown email and a wrong password, so neither can be probed.
const INVALID = fail("invalid_credentials", "The email or password is incorrect.");

export type CredentialCheck =
  { ok: true; user: SignedInUser } | Failure<"invalid_credentials"> | Failure<"rate_limited">;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Checks an email and password; every attempt is counted (per email and per IP) before the check. */
export async function checkCredentials(rawEmail: string, password: string, ip: string): Promise<CredentialCheck> {
  const email = normaliseEmail(rawEmail);
  const retryAfterSeconds = await takeSignInAttempt(email, ip);
  if (retryAfterSeconds > 0) {
    return fail("rate_limited", `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`);
  }

  const user = await db.prisma.user.findUnique({ where: { email } });
  // Verify against a dummy hash for unknown emails so both paths take the same time.
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !valid) return INVALID;
  await signInSucceeded(email, ip);
  return { ok: true, user: { id: user.id, name: user.name, email: user.email, sessionVersion: user.sessionVersion } };
}
