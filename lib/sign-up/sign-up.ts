import "server-only";
import { z } from "zod";
import { normaliseEmail, type SignedInUser } from "@/lib/auth/credentials";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/platform/db/client";
import { Prisma } from "@/lib/platform/db/generated/client";
import { fail, type Failure } from "@/lib/platform/result";
import { onAccountCreated } from "./account-hooks";

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters."),
  email: z.string().trim().max(254, "Use at most 254 characters.").pipe(z.email("Enter a valid email address.")),
  password: z.string().min(10, "Use at least 10 characters.").max(200, "Use at most 200 characters."),
  /** The browser's IANA time zone, so dashboard times read as local from the first visit. */
  timezone: z
    .string()
    .optional()
    .transform((zone) => (zone && isTimeZone(zone) ? zone : "UTC")),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}

export type SignUpInput = z.input<typeof signUpSchema>;
/**
 * `email_taken` is for the caller's logs and tests only: shown to the visitor, it would tell anyone which
 * emails have an account. The action answers it with the same words as any other refusal.
 */
export type SignUpResult = { ok: true; user: SignedInUser; accountId: string } | Failure<"email_taken">;

/**
 * Creates the user, an account named after them and their owner membership, in one transaction. The
 * password is hashed first whether or not the email is taken, so both answers cost the same work.
 */
export async function signUp(raw: SignUpInput): Promise<SignUpResult> {
  const input = signUpSchema.parse(raw);
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, name: input.name, passwordHash } });
      const account = await tx.account.create({ data: { name: input.name, timezone: input.timezone } });
      await tx.membership.create({ data: { userId: user.id, accountId: account.id, role: "owner" } });
      await onAccountCreated(tx, account.id);
      const signedIn = { id: user.id, name: user.name, email: user.email, sessionVersion: user.sessionVersion };
      return { ok: true as const, user: signedIn, accountId: account.id };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return fail("email_taken", "This email already has an account.");
    }
    throw error;
  }
}
